// Bundles the command line, its job worker and the benchmark into dist/ with esbuild
// (milliseconds), so `npm run cli` works right after `npm ci` without a tsc step.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const quiet = process.argv.includes('--quiet');
const started = Date.now();
await build({
  entryPoints: {
    'cli/custos': 'src/cli/custos.ts',
    'cli/job-worker': 'src/jobs/job-worker.ts',
    'bench/bench': 'bench/bench.ts',
    'cli/dev-host': 'src/main/dev-host-main.ts',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  define: { __CUSTOS_VERSION__: JSON.stringify(version) },
  logLevel: quiet ? 'warning' : 'info',
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
