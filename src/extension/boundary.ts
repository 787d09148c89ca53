// What the editor's floor (./say.ts, ./log.ts) uses of the output boundary, in a module of its own: they
// require it on first use, so the entry bundle neither evaluates the boundary's patterns at activation nor
// carries the parts of src/core/output it never uses (a require of the index would bring them all). The
// extension's bundles require it as dist/boundary.js, built on its own (esbuild.js), so the entry carries
// none of it.
export { isSaid, saidText, terminalSafe } from '../core/output';
