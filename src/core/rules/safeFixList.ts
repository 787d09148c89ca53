import { ChunkedInt32 } from '../chunked';
import { saidKey, type Said } from '../output';
import type { Code } from './codes';

// Fix-all's store: every safe fix as three small numbers, every edit as three more, in typed arrays, and
// each title, code and edit text kept once (a file fixed on every row repeats a handful: "Change to SRC",
// "01"). A file fixed three times on each of a million rows once held about 400 bytes per fix in arrays
// of strings and objects; here it is 24 bytes a fix and its edit, in chunks that are never copied to grow, so `fix` peaks near `lint`.

export class SafeFixList {
  /** Each distinct title, code and edit text once; the columns hold their numbers. */
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Each distinct title (a `Said`: our words and the value it writes) once, by its parts. */
  private readonly titles: Said[] = [];
  private readonly titleIds = new Map<string, number>();
  /** The same title object met again (a rule hands out one per value): its number without reading its parts. */
  private readonly titleObjects = new Map<Said, number>();
  private readonly fixCodes = new ChunkedInt32();
  private readonly fixTitles = new ChunkedInt32();
  private readonly fixStarts = new ChunkedInt32();
  private readonly editStarts = new ChunkedInt32();
  private readonly editEnds = new ChunkedInt32();
  private readonly editTexts = new ChunkedInt32();

  /** How many safe fixes. */
  get count(): number {
    return this.fixStarts.length;
  }

  /** How many edits (a fix has one or more). */
  get editCount(): number {
    return this.editStarts.length;
  }

  /** How many distinct titles, codes and edit texts are kept. */
  get distinctStrings(): number {
    return this.strings.length + this.titles.length;
  }

  /** A fix of the problem with `code` that starts at offset `start`; its edits follow with addEdit(). */
  addFix(code: Code, title: Said, start: number): void {
    this.fixCodes.push(this.id(code));
    this.fixTitles.push(this.titleId(title));
    this.fixStarts.push(start);
  }

  /** One edit of the fix added last: replace [start, end) of the text with `text`. */
  addEdit(start: number, end: number, text: string): void {
    this.editStarts.push(start);
    this.editEnds.push(end);
    this.editTexts.push(this.id(text));
  }

  code(i: number): Code {
    return this.strings[this.fixCodes.get(i)] as Code;
  }
  title(i: number): Said {
    return this.titles[this.fixTitles.get(i)];
  }
  start(i: number): number {
    return this.fixStarts.get(i);
  }
  editStart(i: number): number {
    return this.editStarts.get(i);
  }
  editEnd(i: number): number {
    return this.editEnds.get(i);
  }
  editText(i: number): string {
    return this.strings[this.editTexts.get(i)];
  }

  /** A title's number: the same parts (kind and text of each), the same title. */
  private titleId(title: Said): number {
    const known = this.titleObjects.get(title);
    if (known !== undefined) return known;
    const key = saidKey(title);
    let id = this.titleIds.get(key);
    if (id === undefined) {
      id = this.titles.push(title) - 1;
      this.titleIds.set(key, id);
      // Only the first object of each title is remembered: one a distinct title, however many are made.
      this.titleObjects.set(title, id);
    }
    return id;
  }

  private id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.push(s) - 1;
      this.ids.set(s, id);
    }
    return id;
  }
}
