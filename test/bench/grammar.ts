// The TextMate grammar's cost, as the editor pays it for a .rpcsv file (issue 40: the host's share of the
// activation): loading the grammar and tokenizing the first screen (the engine compiles each rule's
// patterns on first use), then tokenizing a generated batch line by line with the binary tokens the editor
// asks for (`tokenizeLine2`), the rule stack carried from line to line. The grammar shipped (syntaxes/:
// nested column rules, one rule and scope per field read) against a flat variant that is NOT shipped
// (test/fixtures/grammar/flat-cycles.tmLanguage.json: a cycle of six quote-free fields is one match, each
// field one scope): the flat one is cheaper but draws some characters differently under themes that leave
// a column uncoloured (Abyss, Monokai, Quiet Light, Solarized, Visual Studio Dark/Light), where the nested
// rules show an outer column's colour or style. Or another grammar file, as the third argument.
// Not part of `npm run bench`; measures only.
// `node --import tsx test/bench/grammar.ts [ROWS=100000] [RUNS=3] [OTHER-GRAMMAR]`
import * as fs from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';
import { generateBatch } from './generate';
import { median } from './report';

const ROOT = path.resolve(__dirname, '..', '..');
const SCOPE = 'source.paygate-recurring-csv';
const GRAMMARS: Record<string, string> = {
  shipped: path.join(ROOT, 'syntaxes', 'paygate-recurring-csv.tmLanguage.json'),
  [process.argv[4] ? path.basename(process.argv[4]) : 'flat cycles (not shipped)']:
    process.argv[4] ?? path.join(ROOT, 'test', 'fixtures', 'grammar', 'flat-cycles.tmLanguage.json'),
};

async function load(file: string): Promise<vsctm.IGrammar> {
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName: string) => (scopeName === SCOPE ? vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file) : null),
  });
  // Dark+'s colours for the scopes the grammar gives (VS Code's default theme builds on it), so each
  // column's tokens stay apart in the binary tokens as they do in the editor.
  registry.setTheme({
    settings: [
      { settings: { foreground: '#D4D4D4', background: '#1E1E1E' } },
      { scope: 'variable', settings: { foreground: '#9CDCFE' } },
      { scope: 'entity.name.type', settings: { foreground: '#4EC9B0' } },
      { scope: 'constant.numeric', settings: { foreground: '#B5CEA8' } },
      { scope: 'entity.name.function', settings: { foreground: '#DCDCAA' } },
      { scope: 'keyword.control', settings: { foreground: '#C586C0' } },
      { scope: 'storage.type', settings: { foreground: '#569CD6' } },
      { scope: 'string', settings: { foreground: '#CE9178' } },
      { scope: 'constant.character.escape', settings: { foreground: '#D7BA7D' } },
      { scope: 'invalid', settings: { foreground: '#F44747' } },
      { scope: 'markup.heading', settings: { foreground: '#569CD6', fontStyle: 'bold' } },
    ],
  });
  const g = await registry.loadGrammar(SCOPE);
  if (!g) throw new Error(`${file}: no grammar`);
  return g;
}

/** Loads the grammar afresh and tokenizes the lines: [ms, tokens]. */
async function once(file: string, lines: string[]): Promise<[number, number]> {
  const t0 = performance.now();
  const grammar = await load(file);
  let stack = vsctm.INITIAL;
  let tokens = 0;
  for (const line of lines) {
    const r = grammar.tokenizeLine2(line, stack);
    stack = r.ruleStack;
    tokens += r.tokens.length / 2;
  }
  return [performance.now() - t0, tokens];
}

async function main(): Promise<void> {
  const rows = Math.max(51, Number(process.argv[2] ?? 100_000) || 100_000);
  const runs = Math.max(1, Math.min(20, Number(process.argv[3] ?? 3) || 3));
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const lines = generateBatch(rows).split(/\r\n|\n/);
  const names = Object.keys(GRAMMARS);
  // What an editor shows first (a fresh grammar, the header and 50 rows), then the whole batch: each
  // grammar in turn, the first screen 5 times as often (it is short).
  const first = Object.fromEntries(names.map((k) => [k, [] as number[]]));
  const all = Object.fromEntries(names.map((k) => [k, [] as [number, number][]]));
  for (let i = 0; i < 5 * runs; i++) for (const name of names) first[name].push((await once(GRAMMARS[name], lines.slice(0, 51)))[0]);
  for (let i = 0; i < runs; i++) for (const name of names) all[name].push(await once(GRAMMARS[name], lines));
  const allMs = (name: string) => median(all[name].map((r) => r[0]));
  console.log(
    `| grammar (${rows.toLocaleString('en-US')} rows; load ${loadavg()[0].toFixed(1)}) | load + header + 50 rows, ms (median of ${5 * runs}) | all lines, ms (median of ${runs}) | tokens |`,
  );
  console.log('|---|---:|---:|---:|');
  for (const name of names)
    console.log(`| ${name} | ${median(first[name]).toFixed(1)} | ${allMs(name).toFixed(0)} | ${all[name][0][1].toLocaleString('en-US')} |`);
  const [a, b] = names;
  console.log(
    `\n${a} ÷ ${b}: all lines ${(allMs(a) / allMs(b)).toFixed(2)}×; load + header + 50 rows ${(median(first[a]) / median(first[b])).toFixed(2)}×`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
