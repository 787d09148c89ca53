// Card numbers leave the document only masked: first 6 and last 4 digits, the rest as `*`. A value
// shorter than a card number (12 digits) is hidden whole: keeping 10 of 11 characters would show it.
export function maskCardNumber(pan: string): string {
  const s = pan.trim();
  if (s.length < 12) return '*'.repeat(s.length);
  return s.slice(0, 6) + '*'.repeat(s.length - 10) + s.slice(-4);
}
