import { commands } from './commands';
import { version } from './version';

// `paygate` entry point: dispatch to one command module each; every command returns its exit code.
const HELP = `paygate ${version} — PayGate Toolkit command line

Usage: paygate <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Run 'paygate <command> --help' for a command's options. 'paygate --version' prints the version.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`paygate: unknown command '${name}'\n\n${HELP}\n`);
    return 2;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`paygate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
