// The sub-reasons of the two outcomes that carry one, each listed once: the core's union, the page's
// message guard and the ledger's reading all take them from here. No imports, so the results page can
// load it (through src/shared) without Node.

/**
 * Why a create's fate is unknown: no whole answer (timeout, connection-lost, truncated, cancelled), or
 * `gateway-unavailable`: an HTTP 5xx that is not the gateway's own typed answer (a proxy's 502/503/504,
 * an empty or HTML page), said by something in front of the gateway, which may have created the payments.
 */
export const UNKNOWN_KINDS = ['timeout', 'connection-lost', 'truncated', 'cancelled', 'gateway-unavailable'] as const;
export type UnknownKind = (typeof UNKNOWN_KINDS)[number];

/**
 * An unknown fate the ledger tells without an answer: the record still says "sending" long after any
 * answer could have come (the editor or the terminal stopped while waiting).
 */
export type RecordedUnknownKind = UnknownKind | 'interrupted';

/** Why nothing was sent: the request never reached the gateway. */
export const TRANSPORT_KINDS = ['refused', 'timeout', 'tls', 'other'] as const;
export type TransportKind = (typeof TRANSPORT_KINDS)[number];

export const isUnknownKind = (v: unknown): v is UnknownKind => (UNKNOWN_KINDS as readonly unknown[]).includes(v);
export const isTransportKind = (v: unknown): v is TransportKind => (TRANSPORT_KINDS as readonly unknown[]).includes(v);
