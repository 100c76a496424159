// Lint, including the layering rule (as VS Code does): an allow-list per layer, eslint/layers.js.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import custosLayers from './eslint/layers.js';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'resources/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Randomness comes from src/common/random only.' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
  },
  // The layering rule: an allow-list per layer (eslint/layers.js; docs/ARCHITECTURE.md explains the layers).
  { files: ['src/**/*.{ts,tsx}'], plugins: { custos: custosLayers }, rules: { 'custos/layers': 'error' } },
  // What the layering rule cannot see by imports: a module named at run time, and Node's globals in
  // code that must run anywhere (tsconfig's Node types apply to every file).
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "ImportExpression[source.type!='Literal']", message: 'A dynamic import must name its module, so the layering rule can check it.' }],
    },
  },
  {
    files: ['src/common/**/*.ts', 'src/mechanisms/*/*.ts', 'src/mechanisms/*/browser/**', 'src/mechanisms/definitions.ts', 'src/mechanisms/job-schema.ts', 'src/mechanisms/report-schema.ts', 'src/mechanisms/browser-registry.ts', 'src/renderer/**'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**'],
    rules: {
      'no-restricted-globals': ['error', ...['process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'setImmediate'].map((name) => ({ name, message: `${name} is Node's: this code runs anywhere (the renderer, a worker); see docs/ARCHITECTURE.md.` }))],
    },
  },
);
