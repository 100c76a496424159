// Bundles the command line, its job worker and the benchmark into dist/ with esbuild
// (milliseconds), so `npm run cli` works right after `npm ci` without a tsc step.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const quiet = process.argv.includes('--quiet');
const started = Date.now();
await build({
  entryPoints: {
    'cli/custos': 'src/cli/custos.ts',
    'cli/job-worker': 'src/jobs/job-worker.ts',
    'bench/bench': 'bench/bench.ts',
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
if (!quiet) console.error(`built dist/ in ${Date.now() - started} ms`);
