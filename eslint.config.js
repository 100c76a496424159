// Lint, including the layering rule (as VS Code does): imports flow one way,
// engine ← io ← jobs ← cli/main, and the renderer reaches the rest only through the preload contract.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message, allowTypeImports = false) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((group) => ({ group: [group], message, allowTypeImports })) },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'resources/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Randomness comes from src/engine/random only.' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
  },
  layer(
    ['src/engine/**'],
    ['**/io/**', '**/jobs/**', '**/cli/**', '**/main/**', '**/preload/**', '**/renderer/**', 'node:*', 'fs', 'path', 'electron', 'react', 'react-dom'],
    'src/engine is pure computation: no io, jobs, main, renderer, Node built-ins or Electron.',
  ),
  layer(['src/io/**'], ['**/jobs/**', '**/cli/**', '**/main/**', '**/preload/**', '**/renderer/**', 'electron', 'react'], 'src/io may import only src/engine.'),
  layer(['src/jobs/**'], ['**/cli/**', '**/main/**', '**/preload/**', '**/renderer/**', 'electron', 'react'], 'src/jobs may import only src/engine and src/io.'),
  layer(['src/cli/**'], ['**/main/**', '**/preload/**', '**/renderer/**', 'electron', 'react'], 'The CLI is a host over src/jobs.'),
  // Type-only imports (erased at build) are allowed so the report model is one shared contract.
  layer(['src/renderer/**'], ['**/engine/**', '**/io/**', '**/jobs/**', '**/cli/**', '**/main/**', 'node:*', 'electron'], 'The renderer talks to the rest only through the preload API.', true),
  layer(['src/preload/**'], ['**/engine/**', '**/io/**', '**/jobs/**', '**/cli/**', '**/renderer/**', 'node:*'], 'The preload exposes a minimal typed API and nothing else.', true),
);
