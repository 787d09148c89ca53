import * as z from './zod';
import { described } from './zod';
import { jsonPathOffset, lineColumnAt, readJsonText } from './jsonPosition';
import { isPlaceholder, SUPPORT_PLACEHOLDER, templateMessage } from './templateMessages';
import { PERIODS } from '../periods';

// The custom report request body ("Custom report request" in the gateway's API description). Per-report templates come from the
// gateway's support managers and may carry fields that description does not show, so unknown keys are kept and sent.

function isKnownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

export const InputReportParameterSchema = z.looseObject({
  type: described(z.string(), { description: 'Input parameter type.', examples: ['INPUT_TEXT'] }),
  name: described(z.string(), { description: "Input parameter name, as given in the report's template." }),
  value: described(z.string(), { description: 'Input parameter value.' }),
});

const filterArray = (what: string) =>
  described(z.array(z.unknown()), { description: `Filter by ${what}; may be sent empty. Element shape: as in the template from support.` });

/** The formats the gateway's API description shows in its samples and the local gateway serves; anything else would be sent for nothing. */
export const REPORT_FORMATS = ['CSV', 'PDF'] as const;

/** A currency filter matches the report's currency column exactly, and the gateway writes ISO 4217 codes. */
const CURRENCY_CODE = /^[A-Z]{3}$/;
const CURRENCY_HINT = 'a currency filter matches only an ISO 4217 code in upper case, such as "EUR"';

export const ReportFiltersSchema = z.looseObject({
  gates: filterArray('gates'),
  companies: filterArray('companies'),
  projects: filterArray('projects'),
  endpoints: filterArray('endpoints'),
  merchants: filterArray('merchants'),
  processors: filterArray('processors'),
  managers: filterArray('managers'),
  resellers: filterArray('resellers'),
  // The element shape is the support manager's, so a lower-case code is a warning, not an error: the JSON
  // Schema gives the editor its squiggle (VS Code shows schema problems as warnings) and
  // reportTemplateWarnings gives the CLI and the Run command the same words.
  currencies: described(
    z.array(described(z.unknown(), { if: { type: 'string' }, then: { pattern: CURRENCY_CODE.source, errorMessage: CURRENCY_HINT } })),
    { description: 'Filter by currencies (ISO 4217 codes in upper case, such as "EUR"); may be sent empty.' },
  ),
});

/** The query options a saved view may carry: the words of `paygate query`'s flags (docs/cli.md). */
const columnList = (what: string) =>
  z.optional(described(z.array(z.string().check(z.minLength(1))), { description: `${what}: column names as in the report's header.` }));

export const ReportViewSchema = described(
  z.strictObject({
    name: described(z.string().check(z.minLength(1)), {
      description: "The view's name: `paygate query --view NAME`, and the table's Views list.",
    }),
    description: z.optional(described(z.string(), { description: 'What the view answers, shown beside its name.' })),
    where: z.optional(
      described(z.string(), {
        description:
          'The filter expression, e.g. Currency = "EUR" and Transaction_type contains "declined" (docs/cli.md, "Query expressions").',
      }),
    ),
    groupBy: columnList('Group by these columns'),
    by: z.optional(described(z.oneOf(PERIODS), { description: 'Group the date column by day, ISO week or month.' })),
    count: z.optional(described(z.boolean(), { description: 'Count the rows of each group.' })),
    sum: columnList('Sum these amount columns (exactly, within each currency)'),
    min: columnList('The least amount of these columns'),
    max: columnList('The largest amount of these columns'),
    avg: columnList("The average amount of these columns (rounded half to even at the report's scale)"),
    currency: z.optional(
      described(z.nullable(z.string().check(z.minLength(1))), {
        description: "The column holding each amount's currency (default: Currency); null when every amount is in one currency.",
      }),
    ),
  }),
  { description: 'A named query over this report: a filter, groups and aggregates.' },
);

export type ReportView = z.output<typeof ReportViewSchema>;

const uniqueNames = (views: readonly { name: string }[]) => new Set(views.map((v) => v.name)).size === views.length;

export const ReportTemplateSchema = described(
  z.looseObject({
    reportIdentifier: described(
      z.string().check(
        z.minLength(1),
        z.refine((v) => !isPlaceholder(v), 'still a placeholder'),
      ),
      {
        description: 'Identifies which custom report is requested. Only your support manager can give it.',
        // Read by VS Code's JSON checker instead of its generic "String is shorter than…".
        errorMessage: "reportIdentifier is empty or a placeholder: ask your support manager for the report's identifier",
        not: { pattern: '^\\s*<[^<>]*>\\s*$' },
      },
    ),
    reportEncode: described(
      z.string().check(z.refine(isKnownEncoding, 'not a character encoding this tool can decode: use one such as UTF-8 or windows-1251')),
      { description: 'Character encoding of the returned report.', examples: ['UTF-8'] },
    ),
    reportName: described(z.string(), { description: 'Name of the report.' }),
    reportCsvDelimiter: described(z.string().check(z.length(1)), {
      description: 'CSV field delimiter of the returned report (one character).',
      examples: [',', ';', '\t'],
    }),
    reportFormat: described(z.oneOf(REPORT_FORMATS), {
      description: 'Output format of the report: CSV (a table) or PDF, the two the gateway serves.',
      errorMessage: 'reportFormat must be "CSV" or "PDF"',
    }),
    configurationReportParameters: described(z.array(z.unknown()), {
      description: 'Configuration parameters; the sample sends an empty array.',
    }),
    inputReportParameters: described(z.array(InputReportParameterSchema), { description: 'Input parameters of the report.' }),
    outputReportParameters: described(z.array(z.unknown()), { description: 'Output parameters; the sample sends an empty array.' }),
    filters: described(ReportFiltersSchema.clone(), { description: 'Nine filter arrays; each may be sent empty.' }),
    views: z.optional(
      described(z.array(ReportViewSchema).check(z.refine(uniqueNames, 'two views have the same name')), {
        description: "Saved views of this report (never sent to the gateway): `paygate query --view NAME` and the table's Views list.",
      }),
    ),
  }),
  {
    title: 'PayGate custom report template',
    description: 'Body of a custom transactions report request (POST {report_base_url}/services/v2/rpt-engine).',
  },
);

export type ReportTemplate = z.output<typeof ReportTemplateSchema>;

/**
 * A fresh template with every field the gateway's API description names, as the "New Report Template" command writes it. It
 * passes its own check but for the report's identifier, which only the support manager can give: that
 * holds a placeholder the check names ("ask your support manager for the report's identifier").
 */
export function newReportTemplate(): ReportTemplate {
  return {
    reportIdentifier: SUPPORT_PLACEHOLDER,
    reportEncode: 'UTF-8',
    reportName: '',
    reportCsvDelimiter: ',',
    reportFormat: 'CSV',
    configurationReportParameters: [],
    inputReportParameters: [],
    outputReportParameters: [],
    filters: {
      gates: [],
      companies: [],
      projects: [],
      endpoints: [],
      merchants: [],
      processors: [],
      managers: [],
      resellers: [],
      currencies: [],
    },
  };
}

export interface TemplateProblem {
  message: string;
  /** JSON path of the offending value ('' for the whole document). */
  path: string;
  /** 1-based, when the problem has a place in the text. */
  line?: number;
  column?: number;
}

export type ParsedReportTemplate =
  | { ok: true; template: ReportTemplate; warnings: TemplateProblem[] }
  | { ok: false; problems: TemplateProblem[]; warnings: TemplateProblem[] };

/**
 * Every problem of a parsed template, by path, without places: the one check the editor, the CLI and the
 * local gateway share (the editor's JSON Schema is generated from the same zod schema).
 */
export function reportTemplateProblems(value: unknown): TemplateProblem[] {
  const r = ReportTemplateSchema.safeParse(value);
  if (r.success) return [];
  // One message per field: an empty identifier is not also reported as a placeholder.
  const byPath = new Map<string, TemplateProblem>();
  for (const i of r.error.issues) {
    const path = i.path.map(String).join('.');
    if (!byPath.has(path)) byPath.set(path, { message: templateMessage(i, value), path });
  }
  return [...byPath.values()];
}

/** Filters that are valid but can never match (a currency code in lower case): sent, with a warning. */
export function reportTemplateWarnings(value: unknown): TemplateProblem[] {
  const filters = (value as { filters?: { currencies?: unknown } } | null)?.filters;
  const currencies = Array.isArray(filters?.currencies) ? (filters.currencies as unknown[]) : [];
  const warnings: TemplateProblem[] = [];
  currencies.forEach((c, i) => {
    if (typeof c !== 'string' || CURRENCY_CODE.test(c)) return;
    const upper = c.trim().toUpperCase();
    const fix = CURRENCY_CODE.test(upper) ? `: write "${upper}"` : '';
    warnings.push({ message: `filters.currencies "${c}" can never match: ${CURRENCY_HINT}${fix}`, path: `filters.currencies.${i}` });
  });
  return warnings;
}

/** Parses a template file's text: JSON syntax errors with line/column, then every schema problem and warning with its place. */
export function parseReportTemplate(text: string): ParsedReportTemplate {
  const read = readJsonText(text);
  if (!read.ok) {
    const place = read.line === undefined ? {} : { line: read.line, column: read.column };
    return { ok: false, problems: [{ message: `invalid JSON: ${read.message}`, path: '', ...place }], warnings: [] };
  }
  const { value, body } = read;
  const placed = (p: TemplateProblem): TemplateProblem => ({
    ...p,
    ...locateKey(body, p.path === '' ? [] : p.path.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k))),
  });
  const warnings = reportTemplateWarnings(value).map(placed);
  const problems = reportTemplateProblems(value).map(placed);
  if (problems.length > 0) return { ok: false, problems, warnings };
  return { ok: true, template: value as ReportTemplate, warnings };
}

/** The place of a schema problem: the property (or array element) its path names. */
function locateKey(text: string, path: readonly PropertyKey[]): { line?: number; column?: number } {
  const at = jsonPathOffset(text, path);
  return at === undefined ? {} : lineColumnAt(text, at);
}

/** The JSON Schema committed as schemas/report-template.schema.json (draft-07: what VS Code's JSON service reads best). */
export function reportTemplateJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ReportTemplateSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return { ...schema, $id: 'https://paygate.invalid/schemas/report-template.schema.json' };
}

export function reportTemplateJsonSchemaText(): string {
  return `${JSON.stringify(reportTemplateJsonSchema(), null, 2)}\n`;
}
