import { processContext } from './context';
import { launch } from './launch';

// The `paygate` process: the one place that touches the real process (arguments, streams, exit code).
launch(process.argv.slice(2), processContext()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`paygate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
