import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeReadmeSection } from './report';
import { targetsIn, verdict } from './table';

// The last step of `npm run bench`: every target the README's bench tables record (the hidden markers
// table.ts's targetLines writes beside each figure), gathered at the top of the Performance section, the
// missed ones first. It reads the README, so it says what the tables say, whichever bench ran last.

const README = join(__dirname, '..', '..', 'README.md');

/** Each bench region's name and text, in the README's order (this summary's own left out). */
export function benchRegions(readme: string): { name: string; text: string }[] {
  return [...readme.matchAll(/<!-- bench:([a-z-]+):start -->\n([\s\S]*?)<!-- bench:\1:end -->/g)]
    .map((m) => ({ name: m[1], text: m[2] }))
    .filter((r) => r.name !== 'targets');
}

export function summary(readme: string): string {
  const all = benchRegions(readme).flatMap((r) => targetsIn(r.text).map((t) => ({ ...t, bench: r.name })));
  const missed = all.filter((t) => !t.met);
  const rows = [...missed, ...all.filter((t) => t.met)].map((t) => `| ${t.bench} | ${t.what} ${t.target} | ${t.figure} | ${verdict(t)} |`);
  let verdictLine = `**${missed.length} of the ${all.length} targets the tables below record ${missed.length === 1 ? 'is' : 'are'} missed.** Each table's header says the load it was taken under: on a busy machine wall times stretch.`;
  if (missed.length === 0) verdictLine = `Every target the tables below record is met (${all.length}).`;
  if (all.length === 0) verdictLine = 'No table below records a target yet.';
  return [verdictLine, '', '| table | target | figure | |', '|---|---|---:|---|', ...rows].join('\n');
}

if (require.main === module) writeReadmeSection('targets', summary(readFileSync(README, 'utf8')));
