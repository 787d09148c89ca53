import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { machineHeader } from './table';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Replaces the README region between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` with the
 * machine header (table.ts: CPU, cores, date, commit, load average, taken now, as the run ends) and `body`.
 */
export function writeReadmeSection(name: string, body: string): void {
  const path = join(__dirname, '..', '..', 'README.md');
  const readme = readFileSync(path, 'utf8');
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a === -1 || b === -1 || b < a) throw new Error(`README.md has no ${start} … ${end} region`);
  writeFileSync(path, `${readme.slice(0, a + start.length)}\n${machineHeader()}\n\n${body}\n${readme.slice(b)}`);
  console.log(`README.md: bench table "${name}" updated`);
}
