// The siphash package (SipHash-2-4, jedisct1/siphash-js) ships no types: the part the ledger uses.
declare module 'siphash' {
  /** A 128-bit key as four 32-bit words. */
  export type SipKey = Uint32Array;
  export function hash_hex(key: SipKey, message: string | Uint8Array): string;
}
