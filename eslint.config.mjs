// ESLint for every side of the product (run by `npm run lint`, part of `npm test`). Type-aware rules
// where they pay: floating promises and misused promises are how a submission gets lost.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Spreading an array into a call puts every element on the stack: past about 100k elements it throws
// "Maximum call stack size exceeded". Loop, reduce or pass the array; a bounded case says why.
const noSpreadIntoCall = ['CallExpression', 'NewExpression'].map((call) => ({
  selector: `${call} > SpreadElement.arguments`,
  message:
    'Do not spread an array into a call: a long array overflows the stack. Loop, reduce or pass the array; if it is bounded, disable this line and say why.',
}));

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', '.vscode-test/**', 'test/fixtures/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    // One type-checked program for every file (tsconfig.eslint.json), not one per project as projectService
    // made (nine): 57 -> 43 s of CPU, the same findings (issue 42; 349 of eleven more typed rules, alike).
    languageOptions: { parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's describe/it return promises the runner awaits itself.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      // An object in a template string or String() prints `[object Object]`: a `Said` (core/output/said.ts) so
      // put lost its words and values once (issue 38). Lay it out with said`…` or laid`…`, or read it with saidText().
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-nested-ternary': 'error',
      'no-restricted-syntax': ['error', ...noSpreadIntoCall],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  // The editor shows messages and writes its log only through the output boundary (src/extension/say.ts,
  // src/extension/log.ts): a message built from a file name or an answer is then safe without remembering.
  {
    files: ['src/extension/**/*.ts'],
    ignores: ['src/extension/say.ts', 'src/extension/log.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...noSpreadIntoCall,
        {
          selector: 'MemberExpression[property.name=/^show(Error|Warning|Information)Message$/]',
          message: 'Show messages with showError/showWarning/showInfo from src/extension/say.ts (the output boundary).',
        },
        {
          selector: 'MemberExpression[property.name="showQuickPick"]',
          message: 'Show a pick list with showPick from src/extension/say.ts (the output boundary).',
        },
        {
          selector: 'MemberExpression[property.name=/^(showInputBox|createInputBox)$/]',
          message: 'Ask with ask() from src/extension/say.ts (the output boundary): its words and its default value pass the floor.',
        },
        {
          selector: 'MemberExpression[property.name="withProgress"]',
          message: 'Show progress with withProgress from src/extension/say.ts (the output boundary): its title and messages are Saids.',
        },
        {
          selector: 'MemberExpression[property.name="createOutputChannel"]',
          message: 'Write to the one log, log() from src/extension/log.ts (the output boundary).',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        URL: 'readonly',
      },
    },
  },
  // Plain .js here is CommonJS run by node itself (esbuild.js), so require() is how it imports.
  { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
