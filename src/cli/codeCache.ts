// Named imports, not namespaces: a bundled namespace import of a Node module copies every export (issue 40).
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { Module } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';
import { fnv1a } from '../core/fnv';

// A V8 code cache for the CLI's first bundle (issue 40): compiling dist/cli-main.js was a quarter of a
// one-row `paygate lint`'s own start-up, and Node 20 has no compile cache of its own (module.
// enableCompileCache came in Node 22.1). So dist/cli.js compiles the bundle through vm.Script with the
// bytecode V8 made for it in an earlier run, kept in the user's cache directory.
//
// The cache is only ever an accelerator: whatever goes wrong (no home, a read-only or shared directory,
// a file another user could have written, another bundle, another Node or V8 flags), the bundle is
// compiled from its source as if there were no cache, and nothing is said.
// - Where: $XDG_CACHE_HOME/paygate/code-cache (an absolute XDG_CACHE_HOME), else ~/.cache/paygate/code-cache;
//   PAYGATE_CODE_CACHE=off turns it off. One file per bundle's place, Node version and architecture.
// - Trusted only when the directory and the file are the user's own and writable by no one else, and the
//   file is no symbolic link: V8 runs cached bytecode as it finds it.
// - Valid only for the very bundle it was made from: the file holds a copy of the bundle's source,
//   compared byte for byte (V8 itself checks only the source's length, its version and its flags).
// - Written once, by a `paygate lint` run that found no usable cache (its compiled functions are what
//   a lint needs), atomically: a file of its own (created exclusively, mode 0600), then renamed.

/** The first bytes of a cache file; a new layout gets a new number. */
const MAGIC = Buffer.from('paygate code cache 1\n');

/** Where the code cache is kept, or undefined when it is off (or there is no home to keep it in). */
export function codeCacheDirectory(env: NodeJS.ProcessEnv, home: () => string = homedir): string | undefined {
  if (env.PAYGATE_CODE_CACHE === 'off') return undefined;
  // The XDG spec ignores a relative XDG_CACHE_HOME.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'paygate', 'code-cache');
  const base = env.HOME || home();
  return base ? join(base, '.cache', 'paygate', 'code-cache') : undefined;
}

/**
 * The cache file's name for a bundle: one per place the bundle is installed (two installs used in turn
 * would otherwise replace each other's cache at every run), Node version and architecture (V8's bytecode
 * is theirs). An upgrade in the same place replaces its cache.
 */
export function codeCacheName(bundle: string): string {
  const place = (fnv1a(bundle) >>> 0).toString(16).padStart(8, '0');
  return `${basename(bundle, '.js')}-${place}-${process.version}-${process.arch}.bin`;
}

/**
 * Is this file or folder the user's own and writable by no one else? On Windows, which has neither owners
 * nor mode bits here, the user's profile folder is the user's own: yes.
 */
function ownOnly(st: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0);
}

/** The V8 code cache kept in `dir` for exactly `source`, or undefined when there is none to trust. */
export function readCodeCache(dir: string, name: string, source: Buffer): Buffer | undefined {
  let fd: number | undefined;
  try {
    if (!ownOnly(statSync(dir))) return undefined;
    fd = openSync(join(dir, name), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || !ownOnly(st)) return undefined;
    const data = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < data.length) {
      const n = readSync(fd, data, got, data.length - got, got);
      if (n === 0) return undefined;
      got += n;
    }
    const at = MAGIC.length + 4;
    if (data.length < at || !data.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const length = data.readUInt32LE(MAGIC.length);
    if (data.length <= at + length || !data.subarray(at, at + length).equals(source)) return undefined;
    return data.subarray(at + length);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Keeps `cache` (made from `source`) in `dir` for the next runs; silently nothing when it cannot. */
export function writeCodeCache(dir: string, name: string, source: Buffer, cache: Buffer): void {
  const temporary = join(dir, `${name}.${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownOnly(statSync(dir))) return;
    const length = Buffer.alloc(4);
    length.writeUInt32LE(source.length);
    writeFileSync(temporary, Buffer.concat([MAGIC, length, source, cache]), { flag: 'wx', mode: 0o600 });
    renameSync(temporary, join(dir, name));
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // never made
    }
  }
}

/**
 * Runs the CommonJS bundle `file` as require() would (its own module, require, __filename and
 * __dirname), compiled from the code cache when one is kept for it; when `keep` and no cache was used,
 * keeps one as the process exits. The bundle must not use import(): vm would need Node's experimental
 * loader for it (the build makes every import() a require(), esbuild.js).
 */
export function runCodeCached(file: string, parent: NodeJS.Module, env: NodeJS.ProcessEnv, keep: boolean): void {
  const dir = codeCacheDirectory(env);
  if (dir === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(file);
    return;
  }
  const source = readFileSync(file);
  const name = codeCacheName(file);
  const cachedData = readCodeCache(dir, name, source);
  // The wrapper Node puts around a CommonJS module; a shebang line becomes a comment.
  let text = source.toString('utf8');
  if (text.startsWith('#!')) text = `//${text.slice(2)}`;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, {
    filename: file,
    cachedData,
  });
  if (keep && (cachedData === undefined || script.cachedDataRejected))
    process.once('exit', () => writeCodeCache(dir, name, source, script.createCachedData()));
  const own = new Module(file, parent);
  own.filename = file;
  own.paths = [];
  require.cache[file] = own;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(own.exports, own.exports, Module.createRequire(file), own, file, dirname(file));
  own.loaded = true;
}
