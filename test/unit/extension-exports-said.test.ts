import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import type * as Results from '../../src/extension/results/panel';
import type * as Forecast from '../../src/extension/forecast/panel';
import type * as Log from '../../src/extension/log';
import { FORECAST_PROTOCOL_VERSION } from '../../src/shared/forecastProtocol';
import { saidText } from '../../src/shared/said';
import type { Said } from '../../src/core/output';

// Every export says where it was saved (issue 43, item 6: "no export says where it was saved"). The page's
// status line sits above a summary scrolled away, so since 2a313c4 the host also shows a notification naming
// the file: the table's rows and the summary (CSV, JSON: the `export` message), the summary's chart (PNG:
// `exportImage`) and the forecast page's exports. This drives each panel's host as the page does (its
// messages), against a fake of the parts of the vscode API they use, and fails on the code before that
// commit: the file was written and nothing was shown. What the page draws is test/webview/summary.test.ts.

const dir = mkdtempSync(join(tmpdir(), 'paygate-exports-'));
after(() => rmSync(dir, { recursive: true, force: true }));

class Uri {
  constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
  static file(p: string): Uri {
    return new Uri('file', p);
  }
  static joinPath(u: Uri, ...parts: string[]): Uri {
    // eslint-disable-next-line no-restricted-syntax -- bounded: a file name or two
    return new Uri(u.scheme, posix.join(u.path, ...parts));
  }
}

const infos: string[] = [];
let saveTo: Uri | undefined;
const quiet = () => ({ dispose() {} });
/** The page side of one panel: the host's listener, and what the host posted. */
interface FakePanel {
  receive(message: unknown): Promise<void>;
  posted: { type: string; ok?: boolean; message?: Said }[];
}
let lastPanel: FakePanel | undefined;

function fakePanel(title = 'page'): FakePanel & Record<string, unknown> {
  let listener: (m: unknown) => Promise<void> = async () => undefined;
  const posted: FakePanel['posted'] = [];
  const panel = {
    title,
    posted,
    receive: (m: unknown) => listener(m),
    reveal() {},
    dispose() {},
    onDidDispose: quiet,
    onDidChangeViewState: quiet,
    webview: {
      options: {},
      html: '',
      cspSource: 'https://webview.test',
      asWebviewUri: (u: Uri) => u,
      onDidReceiveMessage: (f: (m: unknown) => Promise<void>) => ((listener = f), quiet()),
      postMessage: async (m: { type: string }) => (posted.push(m), true),
    },
  };
  lastPanel = panel;
  return panel;
}

const channel = Object.fromEntries(
  ['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace', 'clear', 'show', 'hide', 'dispose'].map((m) => [
    m,
    () => {},
  ]),
);
const fakeVscode = {
  Uri,
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  window: {
    showInformationMessage: async (message: string) => (infos.push(message), undefined),
    showErrorMessage: async (message: string) => (infos.push(`error: ${message}`), undefined),
    showWarningMessage: async (message: string) => (infos.push(`warning: ${message}`), undefined),
    showSaveDialog: async () => saveTo,
    createWebviewPanel: (_type: string, title: string) => fakePanel(title),
    createOutputChannel: () => ({ ...channel, name: 'PayGate', logLevel: 2, onDidChangeLogLevel: quiet }),
  },
  workspace: {
    workspaceFolders: [{ uri: Uri.file(dir) }],
    fs: { writeFile: (u: Uri, bytes: Uint8Array) => writeFile(u.fsPath, bytes) },
    getConfiguration: () => ({ get: <T>(_key: string, fallback: T) => fallback }),
    onDidChangeTextDocument: quiet,
  },
};

const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place */
const { ResultsPanel } = require('../../src/extension/results/panel') as typeof Results;
const { ForecastPanel } = require('../../src/extension/forecast/panel') as typeof Forecast;
const { createLog } = require('../../src/extension/log') as typeof Log;
/* eslint-enable @typescript-eslint/no-require-imports */
createLog({ subscriptions: [] } as never);

const EXTENSION = Uri.file('/extension') as never;
const PNG = `data:image/png;base64,${Buffer.from('\x89PNG\r\n\x1a\nnot really').toString('base64')}`;

/** The status line the page shows for the last message posted: the page lays out its `Said` (issue 38). */
const pageLine = (panel: FakePanel): string | undefined => {
  const m = panel.posted.at(-1)?.message;
  return m === undefined ? undefined : saidText(m);
};

/** Exports through a page's message to `name`: the notification shown, and that the file is where it says. */
async function exported(panel: FakePanel, message: unknown, name: string): Promise<string> {
  saveTo = Uri.file(join(dir, name));
  infos.length = 0;
  await panel.receive(message);
  assert.ok(existsSync(saveTo.fsPath), `${name} was written`);
  assert.equal(panel.posted.at(-1)?.ok, true, JSON.stringify(panel.posted.at(-1)));
  assert.equal(infos.length, 1, `one notification for ${name}: ${JSON.stringify(infos)}`);
  assert.ok(infos[0].includes(saveTo.fsPath), `the notification names the file: ${infos[0]}`);
  return infos[0];
}

test("the results table's exports each say where they were saved: rows as CSV and JSON, the summary's chart as PNG", async () => {
  new ResultsPanel(fakePanel() as never, EXTENSION);
  const panel = lastPanel!;
  const rows = { columns: ['Currency', 'Amount'], rows: [['EUR', '1.00']] };
  assert.equal(
    await exported(panel, { type: 'export', format: 'csv', ...rows, suggestedName: 'r.csv' }, 'rows.csv'),
    `PayGate: exported 1 rows to ${join(dir, 'rows.csv')}.`,
  );
  assert.equal(pageLine(panel), `Exported 1 rows to ${join(dir, 'rows.csv')}.`);
  assert.equal(readFileSync(join(dir, 'rows.csv'), 'utf8'), 'Currency,Amount\r\nEUR,1.00\r\n');
  // A card number in the file's name is masked on the page and in the notification; the row count beside it is a count.
  const many = { columns: ['n'], rows: Array.from({ length: 1234 }, (_, i) => [String(i)]) };
  saveTo = Uri.file(join(dir, '4111 1111 1111 1111.csv'));
  infos.length = 0;
  await panel.receive({ type: 'export', format: 'csv', ...many, suggestedName: 'r.csv' });
  assert.deepEqual(infos, [`PayGate: exported 1,234 rows to ${join(dir, '4111 11** **** 1111.csv')}.`]);
  assert.equal(pageLine(panel), `Exported 1,234 rows to ${join(dir, '4111 11** **** 1111.csv')}.`);
  assert.deepEqual(panel.posted.at(-1)?.message?.said[1], ['count', '1,234']);
  await exported(panel, { type: 'export', format: 'json', ...rows, suggestedName: 'r.json' }, 'rows.json');
  assert.equal(
    await exported(panel, { type: 'exportImage', dataUrl: PNG, suggestedName: 'chart.png' }, 'chart.png'),
    `PayGate: exported the chart to ${join(dir, 'chart.png')}.`,
  );
  // A cancelled save dialog says so on the page and shows nothing.
  saveTo = undefined;
  infos.length = 0;
  await panel.receive({ type: 'exportImage', dataUrl: PNG, suggestedName: 'chart.png' });
  assert.deepEqual(infos, []);
  assert.equal(pageLine(panel), 'Export cancelled.');
});

test("the forecast page's exports (CSV, SVG, PNG) each say where they were saved", async () => {
  const batch = Uri.file(join(dir, 'monthly.rpcsv'));
  const text = readFileSync(join(__dirname, '../../examples/valid.rpcsv'), 'utf8');
  const document = { uri: batch, getText: () => text, lineCount: text.split('\n').length };
  const gateway = { today: () => ({ year: 2027, month: 1, day: 1 }), onDidChangeToday: quiet };
  ForecastPanel.open(document as never, EXTENSION, gateway as never);
  const panel = lastPanel!;
  assert.equal((panel as unknown as { title: string }).title, 'Forecast: monthly.rpcsv');
  // A card number in the batch's name is masked in the panel's title (issue 38; it was shown whole).
  ForecastPanel.open({ ...document, uri: Uri.file(join(dir, '4111 1111 1111 1111.rpcsv')) } as never, EXTENSION, gateway as never);
  assert.equal((lastPanel as unknown as { title: string }).title, 'Forecast: 4111 11** **** 1111.rpcsv');
  lastPanel = panel;
  await panel.receive({ type: 'ready', version: FORECAST_PROTOCOL_VERSION });
  assert.equal(panel.posted.at(-1)?.type, 'forecast', 'the forecast was computed and sent');
  for (const [message, name] of [
    [{ type: 'export', format: 'csv' }, 'f.csv'],
    [{ type: 'export', format: 'svg', svg: '<svg/>' }, 'f.svg'],
    [{ type: 'export', format: 'png', dataUrl: PNG }, 'f.png'],
  ] as const) {
    assert.equal(await exported(panel, message, name), `PayGate: exported the forecast to ${join(dir, name)}.`);
    assert.equal(pageLine(panel), `Exported to ${join(dir, name)}.`);
  }
});
