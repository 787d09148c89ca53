// Loaded with `--require` into each test file's process by npm test (test/tools/test-all.ts): when the file's
// process ends, one JSON line with the file, its wall time (the process's whole life: loading, tests,
// teardown) and its CPU time, its own and that of the child processes it waited for (CLI runs, local
// gateways, servers: /proc/self/stat's utime, stime, cutime and cstime; only its own where /proc is
// missing). Written only in a node:test child process (NODE_TEST_CONTEXT) whose script is a test file, and
// only when PAYGATE_TEST_CPU names the file to append to. CommonJS JavaScript: it is loaded beside
// test/tools/ts-hook.js, not through it.

'use strict';
const { appendFileSync, readFileSync } = require('node:fs');

const destination = process.env.PAYGATE_TEST_CPU;
const file = process.argv[1] ?? '';

/** CPU milliseconds of this process and the children it waited for. */
function cpuMs() {
  try {
    // Fields after the command name (which may hold spaces) start at the state, field 3; utime is 14.
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return Math.round(ticks * 10); // USER_HZ is 100 on Linux
  } catch {
    const { user, system } = process.cpuUsage();
    return Math.round((user + system) / 1000);
  }
}

if (destination && process.env.NODE_TEST_CONTEXT?.startsWith('child') && /\.test\.[cm]?[jt]s$/.test(file)) {
  process.on('exit', () => {
    const line = { file, wallMs: Math.round(process.uptime() * 1000), cpuMs: cpuMs() };
    appendFileSync(destination, `${JSON.stringify(line)}\n`);
  });
}
