import { existsSync } from 'node:fs';

// A file name beside a batch that no file has yet: NAME.already-sent.rpcsv, then NAME.already-sent-2.rpcsv,
// … (the already-sent rows moved out of a batch). Asked by the language server, which reads no disk itself.

/** The `n`th candidate for `file` (an absolute path or a URI path) with `tag` before its extension. */
export function taggedName(file: string, tag: string, n: number): string {
  const slash = file.lastIndexOf('/');
  const dot = file.lastIndexOf('.');
  const [base, ext] = dot > slash + 1 ? [file.slice(0, dot), file.slice(dot)] : [file, '.rpcsv'];
  return `${base}.${tag}${n === 1 ? '' : `-${n}`}${ext}`;
}

/** The number of the first tagged name of `file` (a local path) that does not exist; bounded at 100 tries. */
export function freeTagNumber(file: string, tag: string): number {
  for (let n = 1; n < 100; n++) if (!existsSync(taggedName(file, tag, n))) return n;
  return 100;
}
