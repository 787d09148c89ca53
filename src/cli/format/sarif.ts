import { pathToFileURL } from 'node:url';
import { safeText, type Said } from '../../core/output';
import { jsonOut } from '../output';
import { CodeInfo, FixDocs, type Code, type Severity } from '../../core/rules/codes';
import { PROJECT_URL, ruleDocUrl } from '../../core/rules/links';
import { LineIndex, type TextEdit } from '../../core/text';
import { displayRange, relativeToCwd, showFiles, type FileLint } from './problems';

// `paygate lint --format sarif`: one SARIF 2.1.0 run for all files, for code-scanning dashboards.
// Rules come from the code table; regions are the JSON format's positions (1-based, UTF-16 code units,
// the BOM not counted, end column exclusive); safe fixes become replacements. Pure: cwd and version
// are passed in.

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const SRCROOT = '%SRCROOT%';

type Level = 'error' | 'warning' | 'note';
interface Message {
  text: string;
  markdown?: string;
}
/** A result's message: a `Said`, laid out where the log is written (jsonOut: saidText, each value alone). */
interface ResultMessage {
  text: Said;
}
interface ArtifactLocation {
  uri?: string;
  uriBaseId?: string;
  description?: Message;
}
/** A text region (lines and columns) or, for an edit that removes the byte order mark, a byte region. */
type Region = { startLine: number; startColumn: number; endLine: number; endColumn: number } | { byteOffset: number; byteLength: number };

export interface SarifResult {
  ruleId: Code;
  ruleIndex: number;
  level: Level;
  message: ResultMessage;
  locations: { physicalLocation: { artifactLocation: ArtifactLocation; region: Region } }[];
  fixes?: {
    /** The fix's title, a `Said` laid out as the result's message is. */
    description: ResultMessage;
    artifactChanges: { artifactLocation: ArtifactLocation; replacements: { deletedRegion: Region; insertedContent: { text: string } }[] }[];
  }[];
}

export interface SarifRule {
  id: Code;
  shortDescription: Message;
  fullDescription: Message;
  helpUri: string;
  defaultConfiguration: { level: Level };
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: [
    {
      tool: { driver: { name: 'paygate'; version: string; semanticVersion: string; informationUri: string; rules: SarifRule[] } };
      originalUriBaseIds: Record<string, { uri: string }>;
      columnKind: 'utf16CodeUnits';
      invocations: { executionSuccessful: boolean; toolExecutionNotifications: { level: Level; message: Message }[] }[];
      results: SarifResult[];
    },
  ];
}

export interface SarifContext {
  /** The working directory: result paths are relative to it (uriBaseId %SRCROOT%). */
  cwd: string;
  /** The tool's version (package.json). */
  version: string;
  /** Files that could not be read, one message each: the run did not check everything. */
  failures?: readonly string[];
}

const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', information: 'note' };

const plain = (markdown: string) => markdown.replace(/`/g, '');
const sentence = (s: string) => (/[.!?)]$/.test(s) ? s : `${s}.`);

/** One rule per code of the code table, in its order (ruleIndex points into this list). */
export function sarifRules(): SarifRule[] {
  return (Object.keys(CodeInfo) as Code[]).map((code) => {
    const info = CodeInfo[code];
    const fix = FixDocs[code];
    const full = `${sentence(`${info.when[0].toUpperCase()}${info.when.slice(1)}`)} Reported on: ${info.where}.${fix ? ` Quick fix: ${sentence(fix)}` : ''}`;
    return {
      id: code,
      shortDescription: { text: plain(info.when) },
      fullDescription: { text: plain(full), markdown: full },
      helpUri: ruleDocUrl(code),
      defaultConfiguration: { level: LEVEL[info.severity] },
    };
  });
}

function artifactLocation(f: FileLint, cwd: string): ArtifactLocation {
  if (f.stdin) return { description: { text: 'standard input' } };
  const where = relativeToCwd(f.file, cwd);
  if (!where.inside) return { uri: pathToFileURL(where.absolute).href };
  return { uri: where.path.split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

/**
 * A text edit as a deleted region. Columns do not count the byte order mark, so an edit that removes it
 * cannot be said in columns: it becomes a byte region from the start of the file.
 */
function deletedRegion(edit: TextEdit, text: string, bom: boolean, index: LineIndex): Region {
  const touchesBom =
    bom && edit.range.start.line === 0 && edit.range.start.character === 0 && (edit.range.end.line > 0 || edit.range.end.character > 0);
  if (touchesBom) {
    return { byteOffset: 0, byteLength: new TextEncoder().encode(text.slice(0, index.offsetAt(edit.range.end))).length };
  }
  const r = displayRange(edit.range, bom);
  return { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn };
}

export function buildSarif(files: readonly FileLint[], context: SarifContext): SarifLog {
  const rules = sarifRules();
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const results: SarifResult[] = [];
  for (const f of showFiles(files)) {
    const location = artifactLocation(f.lint, context.cwd);
    const index = new LineIndex(f.lint.text);
    for (const { diagnostic: d, line, column, endLine, endColumn } of f.diagnostics) {
      const result: SarifResult = {
        ruleId: d.code,
        ruleIndex: ruleIndex.get(d.code)!,
        level: LEVEL[d.severity],
        message: { text: d.message },
        locations: [
          { physicalLocation: { artifactLocation: location, region: { startLine: line, startColumn: column, endLine, endColumn } } },
        ],
      };
      // A fix whose text holds card data (the delimiter fix rewrites whole rows) cannot leave the file:
      // masked it would write stars into the batch, so it is left out of the log (the editor and
      // `paygate fix` still apply it).
      const fixes = d.fixes.filter((x) => x.safe && x.edits.every((e) => safeText(e.newText) === e.newText));
      if (fixes.length > 0) {
        result.fixes = fixes.map((x) => ({
          description: { text: x.title },
          artifactChanges: [
            {
              artifactLocation: location,
              replacements: [...x.edits]
                .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)
                .map((e) => ({ deletedRegion: deletedRegion(e, f.lint.text, f.bom, index), insertedContent: { text: e.newText } })),
            },
          ],
        }));
      }
      results.push(result);
    }
  }
  const failures = context.failures ?? [];
  const cwdUri = pathToFileURL(context.cwd).href.replace(/\/?$/, '/');
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: { name: 'paygate', version: context.version, semanticVersion: context.version, informationUri: PROJECT_URL, rules },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: cwdUri } },
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: failures.length === 0,
            toolExecutionNotifications: failures.map((text) => ({ level: 'error' as const, message: { text } })),
          },
        ],
        results,
      },
    ],
  };
}

export function formatSarif(files: readonly FileLint[], context: SarifContext): string {
  return jsonOut(buildSarif(files, context), 2);
}
