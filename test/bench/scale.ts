import { rmSync } from 'node:fs';
import { writeReadmeSection } from './report';
import { machineHeader } from './table';
import { diffTable, reconcileTable } from './scaleBatch';
import { inputsTable, queryTables } from './scaleQuery';
import { prepareWork, WORK } from './scaleRun';

// `npm run bench:scale`: a table for each row of issue 40's table that is about size, on the production
// CLI with default flags, at 100k, 500k and 1M rows where a size applies (PAYGATE_BENCH_SCALE scales them
// down; PAYGATE_BENCH_ONLY=diff,group,in,expressions,inputs,reconcile runs some; PAYGATE_BENCH_NO_README=1
// leaves the README alone).

const only = process.env.PAYGATE_BENCH_ONLY?.split(',');
const wanted = (name: string) => !only || only.includes(name);

function write(name: string, body: string): boolean {
  console.log(`\n${name}\n${machineHeader()}\n\n${body}`);
  return !process.env.PAYGATE_BENCH_NO_README;
}

async function main(): Promise<void> {
  prepareWork();
  try {
    if (wanted('inputs')) {
      const body = await inputsTable();
      if (write('inputs', body)) writeReadmeSection('scale-inputs', body);
    }
    if (wanted('group') || wanted('in') || wanted('expressions')) {
      const q = await queryTables();
      if (write('group', q.group)) writeReadmeSection('scale-group', q.group);
      if (write('in', q.inList)) writeReadmeSection('scale-in', q.inList);
      if (write('expressions', q.expressions)) writeReadmeSection('scale-expressions', q.expressions);
    }
    if (wanted('diff')) {
      const body = await diffTable();
      if (write('diff', body)) writeReadmeSection('scale-diff', body);
    }
    if (wanted('reconcile')) {
      const body = await reconcileTable();
      if (write('reconcile', body)) writeReadmeSection('scale-reconcile', body);
    }
  } finally {
    rmSync(WORK, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
