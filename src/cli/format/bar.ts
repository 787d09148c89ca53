// Bars for terminal charts (`paygate forecast`, `paygate query`): Unicode blocks in eighths of a cell.

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `fraction` (0-1) of `width` cells, in eighths of a cell; a non-zero amount shows at least ▏. */
export function bar(fraction: number, width: number): string {
  const eighths = Math.max(fraction > 0 ? 1 : 0, Math.round(Math.min(1, Math.max(0, fraction)) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}
