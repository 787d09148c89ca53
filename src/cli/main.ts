import { processContext } from './context';
import { launchLint, launchVersion, runsLintOnly, runsVersionOnly } from './lintLaunch';
import type * as Launch from './launch';
import { errorMessage } from '../core/errorMessage';
import { said, saidText, typed } from '../core/output/said';

// The `paygate` process: the one place that touches the real process (arguments, streams, exit code).
// `paygate lint` and `paygate --version` run from this bundle alone; anything else loads the rest of the
// program (lintLaunch.ts).
const args = process.argv.slice(2);
const ctx = processContext();

function launchAny(): Promise<number> {
  // A plain require, not import(): Node would first scan all of a CommonJS bundle it imports for its exports.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { launch } = require('./launch') as typeof Launch;
  return launch(args, ctx);
}

function launchOne(): Promise<number> {
  if (runsVersionOnly(args)) return launchVersion(ctx);
  return runsLintOnly(args) ? launchLint(args, ctx) : launchAny();
}

launchOne().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Past every command's floor: the error's words (a path, an argument) are one value, checked alone.
    process.stderr.write(saidText(said`paygate: ${typed.text(errorMessage(err))}\n`));
    process.exitCode = 2;
  },
);
