// ESLint for session-bookmark (issue 17). A small rule set on purpose: the recommended rules of ESLint and
// typescript-eslint (syntax only, no type information: fast, and `tsc` already checks the types), no import
// cycle in src/, and the rule of the house style that the pure core reads no file system, environment or clock.
// Formatting is Prettier's business (.prettierrc.json), not ESLint's.
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import importX from 'eslint-plugin-import-x'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** The pure core: time, ids and paths come in as arguments (docs/house-style.md, section 1). */
const PURE = ['src/transcript/**/*.ts', 'src/hosts/*/lines.ts', 'src/extract/**/*.ts', 'src/snapshot/**/*.ts', 'src/restore/**/*.ts', 'src/redact/**/*.ts']

const IMPURE_MODULE = 'The pure core reads no files and runs no processes: take the data (or a function that gets it) as an argument.'
const CLOCK = 'The pure core reads no clock: take `now` as an argument.'

export default defineConfig(
  { ignores: ['**/node_modules/**', 'dist/**', 'coverage/**'] },
  {
    files: ['{src,test,bench,stress,scripts,bin}/**/*.{ts,mjs,cjs,js}', '*.{ts,js}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: globals.node },
    rules: {
      // Unused imports and variables are dead code; unused parameters are not (a table of callbacks keeps one
      // signature, a type guard names its argument), and `_`-prefixed names are kept on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // The redactor, the restore fences and the shell rules match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read the JSON the CLI wrote and poke at it; `tsc` still checks them in strict mode.
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // bin/ is CommonJS (bin/package.json): the hook shim starts without an ES module loader.
    files: ['**/*.cjs', 'bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Loads a built-in lazily through the bundle's CommonJS `require` when Node has no getBuiltinModule.
    files: ['src/shared/builtin.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // No import cycle in src/ (scripts/check-structure.mjs checks the same without ESLint, for CI).
    // A dynamic import closes a cycle too: both modules load, and the order decides what each one sees.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: PURE,
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['node:fs', 'fs', 'node:fs/promises', 'fs/promises', 'node:child_process', 'child_process', 'node:os', 'os'].map((name) => ({
            name,
            message: IMPURE_MODULE,
            allowTypeImports: true,
          })),
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'The pure core reads no environment: take the value (or the config) as an argument.' },
        { object: 'process', property: 'hrtime', message: CLOCK },
        { object: 'performance', property: 'now', message: CLOCK },
        { object: 'Date', property: 'now', message: CLOCK },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: CLOCK },
        { selector: "CallExpression[callee.type='Identifier'][callee.name='Date']", message: CLOCK },
        { selector: 'ImportExpression[source.value=/^(node:)?(fs|fs\\u002Fpromises|child_process|os)$/]', message: IMPURE_MODULE },
      ],
    },
  },
)
