// Card numbers leave the document only masked: first 6 and last 4 digits, the rest as `*`.
export function maskCardNumber(pan: string): string {
  const s = pan.trim();
  if (s.length <= 10) return '*'.repeat(s.length);
  return s.slice(0, 6) + '*'.repeat(s.length - 10) + s.slice(-4);
}
