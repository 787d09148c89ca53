import type { Severity } from '../core/rules/codes';
import type { LintDiagnostic } from '../core/rules/types';
import type { Range } from '../core/text';

// The data rows of a document of a million rows, in blocks of a few hundred. A row's line is kept
// relative to its block, and a block knows its first line and its first row's index: rows pasted or
// deleted rewrite the blocks they touch and move the blocks after them (a thousand numbers), not every row
// after them. Rows also stay the same objects when others move, so their diagnostics (kept relative to the
// row's first line) and the order-id index (orderIds.ts) need no update.

/** Rows per block: small enough that rewriting one is cheap, large enough that there are few of them. */
const BLOCK_ROWS = 512;

export interface RowState {
  /**
   * First line of the record (the document's line, until a RowList holds the row: then its block's
   * line counts from) and how many lines it takes (quoted line breaks).
   */
  line: number;
  lines: number;
  /** The row's own diagnostics, in file order, without duplicate-order-id; lines count from the row's first. */
  diagnostics: LintDiagnostic[];
  /** Its duplicate-order-id, lines counted from the row's first too (set through RowList.setDup). */
  dup: LintDiagnostic | undefined;
  /** The client-orderid when the row takes part in the duplicate check (the core's RowFacts.orderId). */
  key: string | undefined;
  /**
   * The client-orderid cell's place relative to the row (lines after its first, characters), found when
   * the row first needs a duplicate-order-id (rows.ts keyCellOf): most never do, and a Range on each of a
   * million rows would be three million objects for the collector.
   */
  keyCell?: Range;
  /**
   * The client-orderid field's characters on the row's first line, as the lint that found the row told
   * (RowFacts.orderIdStart): a duplicate-order-id on it needs no second read of the row. -1 when the row
   * has no id or spans lines (then keyCell is found by reading it).
   */
  keyFrom: number;
  keyTo: number;
  src: boolean;
  srcNeedsState: boolean;
  /** The RowList block holding the row. */
  block?: Block;
  /** Its diagnostics as last published, at the document line they were moved to (see resultOf). */
  shown?: { line: number; dup: LintDiagnostic | undefined; diagnostics: LintDiagnostic[] };
}

export interface Block {
  rows: RowState[];
  /** The line every row's `line` counts from, and the index (among all data rows) of the block's first row. */
  base: number;
  first: number;
  /**
   * How many diagnostics its rows have (duplicate-order-id included), by severity rank (errors, warnings,
   * information): blocks without any are skipped, and the publish looks only where the ones it shows are.
   */
  problems: [number, number, number];
}

export const RANK: Record<Severity, 0 | 1 | 2> = { error: 0, warning: 1, information: 2 };

/** The diagnostics of a row without any, shared (frozen: a row's first diagnostic gets it a list of its own). */
export const NO_DIAGNOSTICS: LintDiagnostic[] = Object.freeze([]) as unknown as LintDiagnostic[];

const hasProblem = (row: RowState): boolean => row.dup !== undefined || row.diagnostics.length > 0;

/** Adds a row's diagnostics to its block's counts (`sign` -1 takes them away). */
function tally(block: Block, row: RowState, sign: 1 | -1): void {
  for (const d of row.diagnostics) block.problems[RANK[d.severity]] += sign;
  if (row.dup) block.problems[RANK[row.dup.severity]] += sign;
}

/** The last index of `blocks` whose `key` is <= `value` (-1 when none). */
function lastAtMost(blocks: readonly Block[], key: 'base' | 'first', value: number): number {
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (blocks[mid][key] > value) high = mid;
    else low = mid + 1;
  }
  return low - 1;
}

export class RowList {
  private blocks: Block[] = [];
  length = 0;

  /** Rows whose `line` is the document's line (as a lint leaves them); `blockRows` is for tests. */
  constructor(
    rows: readonly RowState[],
    private readonly blockRows = BLOCK_ROWS,
  ) {
    this.blocks = this.blocked(
      rows,
      rows.map((row) => row.line),
    );
    this.renumber(0);
  }

  /** The row at index `r` (0 is the first data row). */
  get(r: number): RowState {
    const block = this.blocks[lastAtMost(this.blocks, 'first', r)];
    return block.rows[r - block.first];
  }

  /** A row's first line in the document. */
  lineOf(row: RowState): number {
    return row.block!.base + row.line;
  }

  /** A row's number among the data rows (1 for the first). */
  numberOf(row: RowState): number {
    const { rows, first } = row.block!;
    return first + this.indexIn(rows, row.line) + 1;
  }

  /** The index of the row `line` belongs to, or -1 for lines outside data rows. */
  at(line: number): number {
    const b = lastAtMost(this.blocks, 'base', line);
    if (b < 0) return -1;
    const { rows, base, first } = this.blocks[b];
    const i = this.indexIn(rows, line - base);
    return i >= 0 && line - base < rows[i].line + rows[i].lines ? first + i : -1;
  }

  /** The last of a block's rows starting on or before `line` (relative to the block), -1 when none. */
  private indexIn(rows: readonly RowState[], line: number): number {
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (rows[mid].line > line) high = mid;
      else low = mid + 1;
    }
    return low - 1;
  }

  /**
   * Replaces `count` rows from index `r` by `rows` (whose `line` is the document's line), and moves the
   * rows after them by `delta` lines.
   */
  splice(r: number, count: number, rows: readonly RowState[], delta: number): void {
    const blocks = this.blocks;
    const b0 = Math.max(0, lastAtMost(blocks, 'first', r));
    let b1 = Math.max(b0, lastAtMost(blocks, 'first', r + count - 1));
    const head = blocks[b0].rows.slice(0, r - blocks[b0].first);
    let tail = blocks[b1]?.rows.slice(r + count - blocks[b1].first) ?? [];
    // A block left small takes in the next, so deletions do not leave crumbs.
    if (head.length + rows.length + tail.length < this.blockRows / 4 && b1 + 1 < blocks.length) tail = tail.concat(blocks[++b1].rows);
    const lineOf = (row: RowState): number => this.lineOf(row) + delta;
    const lines = [...head.map((row) => this.lineOf(row)), ...rows.map((row) => row.line), ...tail.map(lineOf)];
    const rewritten = this.blocked(head.concat(rows, tail), lines);
    for (let b = b1 + 1; b < blocks.length; b++) blocks[b].base += delta;
    this.blocks = blocks.slice(0, b0).concat(rewritten, blocks.slice(b1 + 1));
    this.renumber(b0);
  }

  /** How many diagnostics the rows have, by severity rank. */
  problemCounts(): [number, number, number] {
    const counts: [number, number, number] = [0, 0, 0];
    for (const { problems } of this.blocks) for (let rank = 0; rank < 3; rank++) counts[rank] += problems[rank];
    return counts;
  }

  /** Sets a row's duplicate-order-id, keeping its block's counts of problems. */
  setDup(row: RowState, dup: RowState['dup']): void {
    if (row.block) tally(row.block, row, -1);
    row.dup = dup;
    if (row.block) tally(row.block, row, 1);
    // What was published for it is out of date, and a row left without problems is not visited again.
    if (row.shown?.dup !== dup) row.shown = undefined;
  }

  /** Every row in file order. */
  forEach(visit: (row: RowState) => void): void {
    for (const block of this.blocks) for (const row of block.rows) visit(row);
  }

  /** The rows with a diagnostic or a duplicate-order-id, in file order; only in blocks `wanted` (by their counts). */
  *withProblems(wanted: (block: Block) => boolean = () => true): Generator<RowState> {
    for (const block of this.blocks) {
      if (!wanted(block)) continue;
      if (block.problems[0] + block.problems[1] + block.problems[2] === 0) continue;
      for (const row of block.rows) if (hasProblem(row)) yield row;
    }
  }

  /** Rows in blocks of `blockRows`, each row's `line` made relative to its block; `lines` are the document's. */
  private blocked(rows: readonly RowState[], lines: readonly number[]): Block[] {
    const blocks: Block[] = [];
    const size = this.blockRows;
    for (let i = 0; i < rows.length; i += size) {
      const block: Block = { rows: rows.slice(i, i + size), base: lines[i], first: 0, problems: [0, 0, 0] };
      block.rows.forEach((row, j) => {
        row.line = lines[i + j] - block.base;
        row.block = block;
        tally(block, row, 1);
      });
      blocks.push(block);
    }
    return blocks;
  }

  /** Each block's first row's index, from block `from` on. */
  private renumber(from: number): void {
    let first = from > 0 ? this.blocks[from - 1].first + this.blocks[from - 1].rows.length : 0;
    for (let b = from; b < this.blocks.length; b++) {
      this.blocks[b].first = first;
      first += this.blocks[b].rows.length;
    }
    this.length = first;
  }
}
