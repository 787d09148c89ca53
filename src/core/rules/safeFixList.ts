import type { Code } from './codes';

// Fix-all's store: every safe fix as three small numbers, every edit as three more, in typed arrays, and
// each title, code and edit text kept once (a file fixed on every row repeats a handful: "Change to SRC",
// "01"). A file fixed three times on each of a million rows once held about 400 bytes per fix in arrays
// of strings and objects; here it is 24 bytes a fix and edit, so `fix` peaks near `lint`.

/** A growable column of unsigned 32-bit numbers (offsets into a string, which V8 keeps below 2^30). */
class Column {
  private data = new Uint32Array(64);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  at(i: number): number {
    return this.data[i];
  }
}

export class SafeFixList {
  /** Each distinct title, code and edit text once; the columns hold their numbers. */
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly fixCodes = new Column();
  private readonly fixTitles = new Column();
  private readonly fixStarts = new Column();
  private readonly editStarts = new Column();
  private readonly editEnds = new Column();
  private readonly editTexts = new Column();

  /** How many safe fixes. */
  get count(): number {
    return this.fixStarts.length;
  }

  /** How many edits (a fix has one or more). */
  get editCount(): number {
    return this.editStarts.length;
  }

  /** A fix of the problem with `code` that starts at offset `start`; its edits follow with addEdit(). */
  addFix(code: Code, title: string, start: number): void {
    this.fixCodes.push(this.id(code));
    this.fixTitles.push(this.id(title));
    this.fixStarts.push(start);
  }

  /** One edit of the fix added last: replace [start, end) of the text with `text`. */
  addEdit(start: number, end: number, text: string): void {
    this.editStarts.push(start);
    this.editEnds.push(end);
    this.editTexts.push(this.id(text));
  }

  code(i: number): Code {
    return this.strings[this.fixCodes.at(i)] as Code;
  }
  title(i: number): string {
    return this.strings[this.fixTitles.at(i)];
  }
  start(i: number): number {
    return this.fixStarts.at(i);
  }
  editStart(i: number): number {
    return this.editStarts.at(i);
  }
  editEnd(i: number): number {
    return this.editEnds.at(i);
  }
  editText(i: number): string {
    return this.strings[this.editTexts.at(i)];
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
