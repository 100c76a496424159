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
);
