// Injected from package.json at build time would tie the CLI to the build; reading it keeps one source.
import pkg from '../../package.json';
export const version: string = pkg.version;
