import { processContext } from './context';
import { runPaygate } from './program';

// The `paygate` process: the one place that touches the real process (arguments, streams, exit code).
runPaygate(process.argv.slice(2), processContext()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`paygate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
