import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { median } from './report';

// Our part of the activation alone (issue 40's restated target: evaluating dist/extension.js + activate()
// ≤ 5 ms), under plain Node with a minimal fake `vscode` module: each run is a fresh process that requires
// the bundle and calls activate(), timed inside it (CPU time, and wall time beside it). It runs no editor,
// so it cannot see what the host's own calls cost (the log channel, registering the commands); `npm run
// bench:startup` measures the installed VSIX in code-server. Given a second bundle (another build's
// dist/extension.js), the two take turns and the table shows the ratio: on a loaded machine the ratio is
// the figure, not the milliseconds.
// `node esbuild.js --production && node --import tsx test/bench/activation.ts [RUNS] [OTHER-BUNDLE]`

const ROOT = path.resolve(__dirname, '..', '..');

// The child: plain Node (no tsx hooks on require), the fake host installed before the bundle is required.
// package.json is read before the clock starts, as the host reads it before activating us. The run ends
// as soon as it has printed: the next turn (the first screen's bundles) is not activation.
const CHILD = `
const Module = require('node:module');
const bundle = process.argv[1];
const manifest = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
const done = () => ({ dispose() {} });
let channels = 0;
class EventEmitter { constructor() { this.event = () => done(); } fire() {} dispose() {} }
const channel = () => { channels++; const c = { name: 'PayGate', logLevel: 2, onDidChangeLogLevel: done };
  for (const k of ['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace', 'clear', 'show', 'hide', 'dispose']) c[k] = () => {};
  return c; };
const vscode = {
  EventEmitter,
  window: { createOutputChannel: channel, createTreeView: done, registerWebviewPanelSerializer: done },
  commands: { registerCommand: done, executeCommand: async () => undefined },
};
// The real API object has some 260 top-level names (namespaces, classes, enums: VS Code 1.100), which what
// the bundle does with the module it is given may copy (esbuild's __toESM for an \`import * as vscode\`).
for (let i = Object.keys(vscode).length; i < 260; i++) vscode['Api' + i] = class {};
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
const context = { subscriptions: [], extension: { packageJSON: manifest }, asAbsolutePath: (p) => require('node:path').join(require('node:path').dirname(bundle), '..', p) };
const cpu = process.cpuUsage();
const t0 = performance.now();
const ext = require(bundle);
const evaluated = process.cpuUsage(cpu);
ext.activate(context);
const wall = performance.now() - t0;
const all = process.cpuUsage(cpu);
const us = (u) => u.user + u.system;
process.stdout.write(JSON.stringify({ evalCpu: us(evaluated) / 1000, cpu: us(all) / 1000, wall, channels, subscriptions: context.subscriptions.length }));
process.exit(0);
`;

interface Run {
  evalCpu: number;
  cpu: number;
  wall: number;
  channels: number;
  subscriptions: number;
}

function once(bundle: string): Run {
  const out = execFileSync(process.execPath, ['-e', CHILD, path.resolve(bundle), path.join(ROOT, 'package.json')], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(out) as Run;
}

function main(): void {
  const runs = Math.min(500, Math.max(1, Number(process.argv[2] ?? 25) || 25));
  const bundles = [path.join(ROOT, 'dist', 'extension.js'), ...(process.argv[3] ? [process.argv[3]] : [])];
  for (const b of bundles) readFileSync(b); // fails early, and warms the page cache for both
  const load = loadavg()[0];
  const got = bundles.map((): Run[] => []);
  once(bundles[0]);
  for (let i = 0; i < runs; i++) bundles.forEach((b, k) => got[k].push(once(b)));
  const med = (k: number, pick: (r: Run) => number) => median(got[k].map(pick));
  const lines = [
    `| bundle (${runs} runs each, in turn; load ${load.toFixed(1)}) | evaluation CPU ms | + activate() CPU ms | wall ms | log channels made | subscriptions |`,
    '|---|---:|---:|---:|---:|---:|',
    ...bundles.map(
      (b, k) =>
        `| ${path.relative(ROOT, b) || b} | ${med(k, (r) => r.evalCpu).toFixed(2)} | ${med(k, (r) => r.cpu).toFixed(2)} | ${med(k, (r) => r.wall).toFixed(2)} | ${got[k][0].channels} | ${got[k][0].subscriptions} |`,
    ),
  ];
  if (bundles.length === 2) {
    lines.push(
      '',
      `evaluation + activate(), CPU: ${bundles[0]} ÷ ${bundles[1]} = ${(med(0, (r) => r.cpu) / med(1, (r) => r.cpu)).toFixed(2)}×`,
    );
  }
  console.log(lines.join('\n'));
}

main();
