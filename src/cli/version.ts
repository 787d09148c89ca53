// Injected from package.json at build time would tie the CLI to the build; reading it keeps one source.
// The named import brings only the version into the bundle, not the whole manifest (16 KB to compile).
import { version as packageVersion } from '../../package.json';
export const version: string = packageVersion;
