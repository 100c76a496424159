/**
 * Issue 37 target 4: the synthetic census at census size, end to end. Not part of `npm test` or
 * `npm run bench` (at 50M rows it runs for an hour or more and needs ~5 GB of disk):
 *   npx esbuild bench/census-50m.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/bench/census-50m.mjs
 *   node scripts/build-cli.mjs --quiet && node dist/bench/census-50m.mjs [--rows 50000000] [--dir DIR] [--keep]
 *     [--generate-only] [--input census-50000000.csv] [--only dp-counts]
 * Generates the census file (bench/gen-census.ts: Adult rows drawn with replacement, ages jittered
 * by ±2, a Zipf region column; 8 quasi-identifiers), times a streaming naive scan of it (4 MiB
 * chunks, so it stands for a file larger than memory), then `custos run` of three jobs, each with
 * CSV + JSON report in its own process: global recoding k = 1,000 at 5 % (ARX's hierarchies, age in
 * 5/10/20-year intervals, region masked), reconstruction privacy on occupation, dp-counts (the
 * 1- and 2-way marginals of 5 columns, ε = 1). Prints each run's wall time, its ratio to the scan
 * (target ≤ 12×), its CPU seconds and peak RSS (GNU time; target ≤ 12 GiB), and the load average.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dpCountsJob } from './dp-counts-peer.js';
import { censusJob, naiveScan } from './end-to-end.js';
import { writeCensus } from './gen-census.js';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '50000000' }, dir: { type: 'string' }, keep: { type: 'boolean' }, input: { type: 'string' }, only: { type: 'string' }, 'generate-only': { type: 'boolean' } } });
const rows = Number(args.rows);
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(', ');
const dir = args.dir ? resolve(args.dir) : mkdtempSync(join(tmpdir(), 'custos-census-'));
mkdirSync(dir, { recursive: true });
// --input: a census file written before (by --generate-only --keep): generating 50M rows takes minutes.
const input = args.input ? resolve(args.input) : join(dir, `census-${rows}.csv`);
const delimiter = ';';
const adult = (name: string): string => resolve(`resources/adult/adult_hierarchy_${name}.csv`);

let t0 = performance.now();
if (!args.input) {
  const fd = openSync(input, 'w');
  writeCensus(fd, { rows, seed: 1, jitter: 2, regions: 50, seedFile: resolve('resources/adult/adult.csv') });
  closeSync(fd);
  console.log(`census of ${rows.toLocaleString('en-US')} rows: ${(statSync(input).size / 1e9).toFixed(2)} GB written in ${((performance.now() - t0) / 1000).toFixed(1)} s (load ${load()})`);
  if (args['generate-only']) {
    console.log(`written ${input}`);
    process.exit(0);
  }
}

t0 = performance.now();
const scan = naiveScan(input, 8, delimiter);
const scanMs = scan.ms;
console.log(`streaming naive scan: ${(scanMs / 1000).toFixed(1)} s (load ${load()})`);

const quasi = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'];
const jobs: Record<string, object> = {
  'global recoding k = 1,000, 5 %': {
    version: 1,
    input: { path: input, delimiter, missing: [''] },
    attributes: { ...Object.fromEntries(quasi.map((q) => [q, 'quasi'])), region: 'insensitive', occupation: 'insensitive' },
    method: {
      type: 'global-recoding',
      hierarchies: { ...Object.fromEntries(quasi.filter((q) => q !== 'age').map((q) => [q, adult(q)])), age: { type: 'interval', widths: [5, 10, 20] } },
      models: [{ type: 'k-anonymity', k: 1000 }],
      suppressionLimit: 0.05,
      measure: 'loss',
    },
    output: { dir: 'release', formats: ['csv'], report: ['json'] },
  },
  'reconstruction privacy': censusJob(input, delimiter, ['csv'], ['json']),
  'dp-counts': dpCountsJob(input, delimiter),
};

const timed = spawnSync('/usr/bin/time', ['-f', '%U', 'true']).status === 0;
console.log('\n| run (CSV + JSON report) | seconds | × streaming scan | CPU s | peak RSS | load average |');
console.log('|---|---:|---:|---:|---:|---|');
// --only: the jobs whose name contains it (e.g. --only dp-counts), one method at a time on a shared machine.
for (const [name, job] of Object.entries(jobs).filter(([name]) => !args.only || name.includes(args.only))) {
  const jobPath = join(dir, 'job.json');
  writeFileSync(jobPath, JSON.stringify(job));
  const out = join(dir, 'release');
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}-internal`, { recursive: true, force: true });
  const command = [process.execPath, resolve('dist/cli/custos.mjs'), 'run', jobPath, '--out', out];
  const started = performance.now();
  const result = timed ? spawnSync('/usr/bin/time', ['-f', 'cpu %U %S %M', ...command], { encoding: 'utf8', maxBuffer: 64 << 20 }) : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - started;
  const cpu = /cpu ([\d.]+) ([\d.]+) (\d+)/.exec(result.stderr);
  if (result.status !== 0) {
    console.log(`| ${name} | failed (exit ${result.status}) after ${(ms / 1000).toFixed(1)} s: ${result.stderr.trim().split('\n').filter((l) => !l.startsWith('cpu ')).slice(-2).join(' ')} | | | | ${load()} |`);
    continue;
  }
  console.log(`| ${name} | ${(ms / 1000).toFixed(1)} | ${(ms / scanMs).toFixed(2)} | ${cpu ? (Number(cpu[1]) + Number(cpu[2])).toFixed(1) : ''} | ${cpu ? `${(Number(cpu[3]) / 2 ** 20).toFixed(2)} GiB` : ''} | ${load()} |`);
}
if (!args.keep && !args.input) rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${dir}`);
