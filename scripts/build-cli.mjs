// Bundles the command line, its job worker and the benchmark into dist/ with esbuild
// (milliseconds), so `npm run cli` works right after `npm ci` without a tsc step.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const quiet = process.argv.includes('--quiet');
const started = Date.now();
const node = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  define: { __CUSTOS_VERSION__: JSON.stringify(version) },
  logLevel: quiet ? 'warning' : 'info',
};
// The command line and its job worker share their code in chunks beside them (dist/cli/), so the
// entry (src/cli/entry.ts) stays small: a job's worker starts before the rest is loaded. Chunks of
// an earlier build are removed first (their names carry a hash of their contents).
mkdirSync('dist/cli', { recursive: true });
for (const name of readdirSync('dist/cli')) if (/^chunk-.*\.mjs(\.map)?$/.test(name)) rmSync(join('dist/cli', name));
await build({
  ...node,
  entryPoints: {
    'cli/custos': 'src/cli/entry.ts',
    'cli/custos-main': 'src/cli/custos.ts',
    'cli/job-worker': 'src/jobs/job-worker.ts',
    // A run's helper threads load this smaller entry (the chunks it shares with the job worker).
    'cli/helper-worker': 'src/jobs/helper-worker.ts',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'cli/[name]-[hash]',
});
await build({
  ...node,
  entryPoints: {
    'bench/bench': 'bench/bench.ts',
    'cli/dev-host': 'src/main/dev-host-main.ts',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
});
// The renderer: React for the browser, the same bundle the desktop shell loads.
await build({
  entryPoints: { app: 'src/renderer/main.tsx' },
  outdir: 'dist/renderer',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'chrome120',
  jsx: 'automatic',
  minify: true,
  sourcemap: true,
  define: { 'process.env.NODE_ENV': '"production"', __CUSTOS_VERSION__: JSON.stringify(version) },
  logLevel: quiet ? 'warning' : 'info',
});
mkdirSync('dist/renderer', { recursive: true });
copyFileSync('src/renderer/index.html', 'dist/renderer/index.html');
copyFileSync('src/renderer/styles.css', 'dist/renderer/styles.css');
if (!quiet) console.error(`built dist/ in ${Date.now() - started} ms`);
