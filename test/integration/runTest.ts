// `npm run test:integration`: the same integration suite under @vscode/test-electron, for machines that
// can download VS Code (this one cannot: `npm run test:e2e` runs the suite in code-server instead).
// On a Linux machine without a display, run it under `xvfb-run -a`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<number> {
  const root = path.resolve(__dirname, '..', '..');
  const extensionTestsPath = path.join(root, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(extensionTestsPath)) {
    console.error(`${extensionTestsPath} is missing: run \`npm run build\` first`);
    return 1;
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-integration-'));
  try {
    const workspace = path.join(scratch, 'workspace');
    fs.cpSync(path.join(root, 'test', 'fixtures', 'e2e', 'workspace'), workspace, { recursive: true });
    const code = await runTests({
      // The oldest VS Code that engines.vscode accepts, the one @types/vscode describes; override to try others.
      version: process.env.PAYGATE_VSCODE_VERSION || '1.100.3',
      extensionDevelopmentPath: root,
      extensionTestsPath,
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir',
        path.join(scratch, 'user-data'),
      ],
      extensionTestsEnv: {
        PAYGATE_STATE_DIR: path.join(scratch, 'gateway-state'),
        // The submission ledger of the test run, never the user's own.
        PAYGATE_DATA_DIR: path.join(scratch, 'data'),
        ...(process.env.PAYGATE_TEST_GREP ? { PAYGATE_TEST_GREP: process.env.PAYGATE_TEST_GREP } : {}),
      },
    });
    return code;
  } catch (err) {
    console.error(`test:integration: ${err instanceof Error ? err.message : String(err)}`);
    console.error('(VS Code could not be downloaded or started here? `npm run test:e2e` runs the same suite in code-server.)');
    return 1;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    console.error(`test:integration: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
