// The layout's arrows are checked by the compiler: each side is a TypeScript project (tsconfig.json in its
// folder) that maps what it must not use to src/boundary.d.ts or leaves it out of its types. These tests
// put a probe file into a side's program and ask the compiler what it thinks of a forbidden import, with a
// permitted import beside it as the control.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { PROCESS_MS } from '../fixtures/deadlines';

const ROOT = path.resolve(__dirname, '..', '..');

/** Source files already parsed, by path and language version. */
const PARSED = new Map<string, ts.SourceFile>();

/** The error codes the compiler reports for `source`, placed as a new file in the `side` project. */
function compile(side: string, source: string): number[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, side, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  assert.ok(parsed, side);
  const probe = path.join(ROOT, side, '__boundary_probe__.ts');
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) => {
    if (path.resolve(file) === probe) return ts.createSourceFile(file, source, language);
    // Every other file parsed once for all the compiles (the sides share their sources and Node's and
    // TypeScript's declarations), as the language service does: a program only reads a source file.
    const key = `${path.resolve(file)}|${typeof language === 'object' ? `${language.languageVersion}/${language.impliedNodeFormat}` : language}`;
    // eslint-disable-next-line no-restricted-syntax -- bounded: the compiler host's own arguments forwarded
    const parsedFile = PARSED.get(key) ?? getSourceFile(file, language, ...rest);
    if (parsedFile) PARSED.set(key, parsedFile);
    return parsedFile;
  };
  // Read the other sides from their sources, as the editor does, not from the declarations `tsc -b`
  // writes to out/tsc: the suite runs in a fresh clone where no build has run yet. (The host hook the
  // language service sets for this; not in the public typings.)
  (host as ts.CompilerHost & { useSourceOfProjectReferenceRedirect?: () => boolean }).useSourceOfProjectReferenceRedirect = () => true;
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === probe || fileExists(file);
  const program = ts.createProgram({
    rootNames: [...parsed.fileNames, probe],
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host,
  });
  const file = program.getSourceFile(probe);
  assert.ok(file);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ];
  return diagnostics.filter((d) => d.file === undefined || path.resolve(d.file.fileName) === probe || d.code === 6307).map((d) => d.code);
}

const NOT_A_MODULE = 2306;
const NOT_IN_PROJECT = 6307;

describe('layout boundaries, enforced by the compiler', { timeout: 3 * PROCESS_MS }, () => {
  it('the core cannot import vscode; it can use Node', () => {
    assert.ok(compile('src/core', "import type { Uri } from 'vscode';\nexport type U = Uri;\n").includes(NOT_A_MODULE));
    assert.deepEqual(compile('src/core', "import { createHash } from 'node:crypto';\nexport const h = createHash;\n"), []);
  });
  it('the local gateway cannot import vscode or the language server protocol', () => {
    assert.ok(compile('src/local-gateway', "import type { Uri } from 'vscode';\nexport type U = Uri;\n").includes(NOT_A_MODULE));
    assert.ok(
      compile('src/local-gateway', "import type { Connection } from 'vscode-languageserver';\nexport type C = Connection;\n").includes(
        NOT_A_MODULE,
      ),
    );
  });
  it('the callback listener cannot import vscode, the extension, the CLI or the other servers; it can use the core', () => {
    const side = 'src/callback-listener';
    assert.ok(compile(side, "import type { Uri } from 'vscode';\nexport type U = Uri;\n").includes(NOT_A_MODULE));
    for (const from of ['../extension/log', '../cli/output', '../local-gateway/callbacks', '../language-server/settings']) {
      assert.ok(compile(side, `import * as m from '${from}';\nexport const v = m;\n`).includes(NOT_IN_PROJECT), from);
    }
    assert.deepEqual(compile(side, "import { callbackControl } from '../core/callbacks';\nexport const c = callbackControl;\n"), []);
  });
  it('the results page cannot import Node or the extension; it can import src/shared', () => {
    assert.ok(
      compile(
        'webview-ui',
        "import { sanitiseSubmissionView } from '../src/extension/results/sanitise';\nexport const s = sanitiseSubmissionView;\n",
      ).includes(NOT_IN_PROJECT),
    );
    assert.deepEqual(
      compile('webview-ui', "import { VIEW_TYPE } from '../src/shared/resultsProtocol';\nexport const v: string = VIEW_TYPE;\n"),
      [],
    );
  });
  it("the page's bundle cannot contain Node's modules", async () => {
    const build = esbuild.build({
      stdin: { contents: "import { readFileSync } from 'node:fs'; console.log(readFileSync);", resolveDir: path.join(ROOT, 'webview-ui') },
      bundle: true,
      write: false,
      platform: 'browser',
      logLevel: 'silent',
    });
    await assert.rejects(build, /node:fs/);
  });
  it('the contracts in src/shared cannot import Node', () => {
    assert.ok(compile('src/shared', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n").includes(NOT_A_MODULE));
  });
});
