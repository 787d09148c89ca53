import { parseArgs, type ParseArgsConfig } from 'node:util';

// Shared argument parsing for `paygate` commands: node:util parseArgs, with errors as values so every
// command reports usage problems the same way (message + exit code 2).

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type ArgValues = Record<string, string | boolean | string[] | undefined>;

export type ParsedArgs = { ok: true; values: ArgValues; positionals: string[] } | { ok: false; message: string };

export function parseCommandArgs(args: string[], options: OptionSpecs, allowPositionals = true): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals, strict: true });
    return { ok: true, values: values as ArgValues, positionals };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message.replace(/\. To specify a positional argument.*$/s, '') : String(err) };
  }
}

/** A string option's value ('' stays ''); undefined when absent or given as a flag. */
export function stringValue(values: ArgValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function stringValues(values: ArgValues, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/** Checks a value is one of the allowed ones; the error names the option. */
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], option: string, fallback: T): { ok: true; value: T } | { ok: false; message: string } {
  if (value === undefined) return { ok: true, value: fallback };
  return (allowed as readonly string[]).includes(value)
    ? { ok: true, value: value as T }
    : { ok: false, message: `${option} must be ${allowed.join(' or ')}, not "${value}"` };
}

/**
 * A command's arguments with `--help` and usage errors handled alike for every command: a number is
 * the exit code to return at once (0 after printing the help, 2 after a usage error).
 */
export function commandArgs(name: string, help: string, args: string[], options: OptionSpecs): { values: ArgValues; positionals: string[] } | number {
  const parsed = parseCommandArgs(args, { ...options, help: { type: 'boolean', short: 'h' } });
  if (!parsed.ok) {
    process.stderr.write(`paygate ${name}: ${parsed.message}\n${help}\n`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(`${help}\n`);
    return 0;
  }
  return parsed;
}
