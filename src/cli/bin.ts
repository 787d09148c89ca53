import { join } from 'node:path';
import { runCodeCached } from './codeCache';

// The `paygate` program file, dist/cli.js: it runs the CLI's first bundle, dist/cli-main.js (main.ts: lint
// and the version on their own, the rest of the program on demand), from the V8 code cache a lint run
// kept (codeCache.ts), so a run does not compile that bundle again. Nothing else belongs here: this file
// is compiled at every start.
runCodeCached(join(__dirname, 'cli-main.js'), module, process.env, process.argv[2] === 'lint');
