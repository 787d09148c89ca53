// Mocha runner inside VS Code's extension host. Both launchers load this module: @vscode/test-electron
// (`npm run test:integration`) and the code-server payload (`npm run test:e2e`). The host calls run()
// and reports its settlement, so the outcome travels as a resolved or rejected promise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { TEST_TIMEOUT_MS } from './wait';

const { EVENT_RUN_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_SUITE_BEGIN } = Mocha.Runner.constants;

// The extension host's stdout is not a terminal everywhere (code-server forwards console.log to the
// browser console line by line), so the reporter writes whole lines through console.log only.
class SummaryReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const failures: { title: string; err: Error }[] = [];
    let passed = 0;
    let pending = 0;
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.title) console.log(`${'  '.repeat(depth(suite))}${suite.title}`);
    });
    runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
      passed++;
      // A test over a second says how long it took, so a run's log shows where the editor suite's time goes.
      const took = (test.duration ?? 0) >= 1000 ? ` (${((test.duration ?? 0) / 1000).toFixed(1)} s)` : '';
      console.log(`${'  '.repeat(depth(test))}ok ${test.title}${took}`);
    });
    runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => {
      pending++;
      console.log(`${'  '.repeat(depth(test))}skipped ${test.title}`);
    });
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, err: Error) => {
      failures.push({ title: test.fullTitle(), err });
      console.log(`${'  '.repeat(depth(test))}FAILED ${test.title}`);
    });
    runner.once(EVENT_RUN_END, () => {
      if (failures.length > 0) {
        console.log('');
        console.log('Failures:');
        failures.forEach((f, i) => {
          console.log(`${i + 1}) ${f.title}`);
          console.log(indent(describeError(f.err), '   '));
        });
      }
      console.log('');
      console.log(`${passed} passed, ${failures.length} failed${pending > 0 ? `, ${pending} skipped` : ''}`);
    });
  }
}

function depth(runnable: Mocha.Runnable | Mocha.Suite): number {
  let n = 0;
  for (let p = runnable.parent; p && !p.root; p = p.parent) n++;
  return n;
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    const e = err as Error & { actual?: unknown; expected?: unknown; showDiff?: boolean };
    const lines = [e.stack ?? `${e.name}: ${e.message}`];
    // Stacks from node:assert already carry the diff in the message; keep this for plain Errors with values.
    if ('expected' in e && 'actual' in e && !String(e.stack ?? '').includes('expected')) {
      lines.push(`expected: ${safeJson(e.expected)}`, `actual:   ${safeJson(e.actual)}`);
    }
    return lines.join('\n');
  }
  return String(err);
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

/** Finds every bundled suite next to this runner; PAYGATE_TEST_GREP narrows the run while debugging. */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: TEST_TIMEOUT_MS, reporter: SummaryReporter });
  const grep = process.env.PAYGATE_TEST_GREP;
  if (grep) mocha.grep(grep);
  const dir = __dirname;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(path.join(dir, f));
  console.log(`PayGate integration suite: ${files.length} file(s) in ${dir}`);
  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else if ((runner.stats?.tests ?? 0) === 0) reject(new Error('no integration test ran'));
        else resolve();
      });
    } catch (err) {
      // A suite that throws while loading (syntax, missing import) must fail the run, not hang it.
      console.log(`Could not load the integration suites:\n${describeError(err)}`);
      console.log('0 passed, 1 failed');
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
