// A query over a report's text as it comes (a file read in chunks, standard input, a report arriving from
// the gateway): the one report reader cuts it into pieces of rows, the plan is made when the header
// arrives, and each piece is run and dropped. Rows are named by the line they start on, counted as the
// report reader's record reader counts them (a quoted value may hold line breaks).

import { CsvReader, type Piece } from '../csv/reportReader';
import { planQuery, type PlanProblem, type QuerySpec } from './plan';
import { queryOutcome, type QueryOutcome } from './result';
import { QueryRun } from './run';
import { countBreaks } from '../text';

export class QueryStream {
  private readonly reader: CsvReader;
  private run: QueryRun | undefined;
  /** Why the query cannot run on this report (an unknown column, a bad expression); set at the header. */
  problem: PlanProblem | undefined;
  columns: string[] | undefined;
  private line = 1;
  private rows = 0;

  constructor(
    private readonly spec: QuerySpec,
    options: { delimiter?: string; onHeader?: (columns: string[], problem: PlanProblem | undefined) => void } = {},
  ) {
    this.reader = new CsvReader({
      delimiter: options.delimiter,
      onHeader: (columns) => {
        this.columns = columns;
        this.line = 2 + columns.reduce((n, c) => n + countBreaks(c, 0, c.length), 0);
        const plan = planQuery(columns, this.spec);
        if (plan.ok) this.run = new QueryRun(plan.plan, this.spec.maxGroups);
        else this.problem = plan.problem;
        options.onHeader?.(columns, this.problem);
      },
      onPiece: (piece) => this.piece(piece),
      onSkipped: (text, from, to) => (this.line += countBreaks(text, from, to)),
    });
  }

  private piece(p: Piece): void {
    const run = this.run;
    if (!run) return;
    const width = p.rows === 0 ? 1 : p.start.length / p.rows;
    // Lines are counted only as far as asked (a skipped amount names its line) and then to the piece's end.
    let line = this.line;
    let at = p.begin;
    const lineOf = (r: number) => {
      const start = p.start[r * width];
      line += countBreaks(p.text, at, start);
      at = start;
      return line;
    };
    run.addRows(p, p.rows, width, this.rows, lineOf);
    this.line = line + countBreaks(p.text, at, p.consumed);
    this.rows += p.rows;
  }

  push(text: string): void {
    if (this.problem === undefined) this.reader.push(text);
  }

  /** The end of the report: what the query found, or undefined when it could not run (see `problem`). */
  end(): QueryOutcome | undefined {
    if (this.problem === undefined) this.reader.end();
    if (this.problem !== undefined) return undefined;
    // A report with no header at all: plan against no columns, so an unknown column is still named.
    if (!this.run) {
      const plan = planQuery([], this.spec);
      if (!plan.ok) {
        this.problem = plan.problem;
        return undefined;
      }
      this.run = new QueryRun(plan.plan, this.spec.maxGroups);
    }
    return queryOutcome(this.run);
  }

  /** Records with malformed quoting, and records not as wide as the header (read as parsed). */
  get malformed(): { errors: number; ragged: number } {
    return { errors: this.reader.errors, ragged: this.reader.ragged };
  }
}
