/**
 * Issue 37 item 5: dp-counts' counting stage on DuckDB, the same release byte for byte. Not part of
 * `npm test` or `npm run bench` (its test, test/duckdb-counts.test.ts, runs the same path on a small
 * file). Build and run:
 *   npx esbuild bench/duckdb-counts.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/bench/duckdb-counts.mjs
 *   node scripts/build-cli.mjs --quiet && node dist/bench/duckdb-counts.mjs --input census-1000000.csv [--delimiter ';']
 *     [--job job.json] [--seed 1] [--threads N] [--dir DIR]
 * The job is bench/census-50m.ts's dp-counts job on --input (`dpCountsJob`: the 1- and 2-way
 * marginals of 5 columns, ε = 1, cells from the data), or any dp-counts job on a CSV (--job).
 *  1. DuckDB, in a process of its own: every count set of the job as one grouping set of one
 *     `GROUP BY GROUPING SETS`, rolled up from one group-by of `read_csv` over all the counted
 *     columns (the job's delimiter, its missing codes as NULL): one pass over the file.
 *  2. `custos run <job> --test-seed N` (CUSTOS_TEST_RANDOMNESS=1), the reference release.
 *  3. Custos, in this process: the input read as `custos run` reads it, its count pass
 *     (`trueAnswers`) timed, then its dp-counts run twice with `--test-seed`'s generator: from its
 *     own counts, and from DuckDB's mapped onto its queries. Every count is compared (any
 *     difference is listed, exit 1), and answers.csv from DuckDB's counts must equal the run's
 *     byte for byte (else exit 1).
 * Prints wall time and peak RSS of DuckDB's counting (its process) and of Custos's in-memory
 * counting (read + count pass, this process's peak at that point), the CLI run's, and the load
 * average. Custos reads on one thread here; `custos run` may read with a helper thread.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadJobFile } from '../src/jobs/load-job.js';
import { trueAnswers } from '../src/mechanisms/dp-counts/node/answers.js';
import { dpCountsJob } from './dp-counts-peer.js';
import { countDifferences, countsForPlan, duckdbCounts, readJobInput, seededAnswers, writeAnswersCsv, type EngineCounts } from './duckdb-marginals.js';

const { values: args } = parseArgs({
  options: {
    input: { type: 'string' }, delimiter: { type: 'string', default: ';' }, job: { type: 'string' }, seed: { type: 'string', default: '1' },
    threads: { type: 'string' }, dir: { type: 'string' },
    // Internal: the DuckDB stage, run by this script in a process of its own.
    stage: { type: 'string' }, 'counts-out': { type: 'string' },
  },
});
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(', ');
const gib = (kib: number): string => `${(kib / 2 ** 20).toFixed(2)} GiB`;
const seconds = (ms: number): string => (ms / 1000).toFixed(1);

const cpuNow = (): number => {
  const usage = process.resourceUsage();
  return (usage.userCPUTime + usage.systemCPUTime) / 1000;
};

if (args.stage === 'duckdb') {
  // From here: DuckDB's instance, its read of the file and the statement (not Node's start).
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const counts = await duckdbCounts(loadJobFile(args.job!), args.threads ? { threads: Number(args.threads) } : {});
  const ms = performance.now() - t0;
  writeFileSync(args['counts-out']!, JSON.stringify({ shapes: [...counts.shapes], cells: [...counts.cells], sql: counts.sql }));
  console.log(JSON.stringify({ ms, cpuMs: cpuNow() - cpu0, maxRssKiB: process.resourceUsage().maxRSS }));
  process.exit(0);
}

if (!args.input && !args.job) {
  console.error('usage: node dist/bench/duckdb-counts.mjs --input census.csv [--delimiter ;] | --job job.json  [--seed N] [--threads N] [--dir DIR]');
  process.exit(2);
}
const seed = Number(args.seed);
const dir = args.dir ? resolve(args.dir) : mkdtempSync(join(tmpdir(), 'custos-duckdb-'));
mkdirSync(dir, { recursive: true });
const jobPath = args.job ? resolve(args.job) : join(dir, 'job.json');
if (!args.job) writeFileSync(jobPath, JSON.stringify(dpCountsJob(resolve(args.input!), args.delimiter!)));
const loaded = loadJobFile(jobPath);
console.log(`dp-counts on ${loaded.job.input.path}, --test-seed ${seed} (load ${load()})`);

// 1. DuckDB's counting, in its own process (its peak RSS is its own).
const countsPath = join(dir, 'duckdb-counts.json');
let t0 = performance.now();
const child = spawnSync(process.execPath, [process.argv[1]!, '--stage', 'duckdb', '--job', jobPath, '--counts-out', countsPath, ...(args.threads ? ['--threads', args.threads] : [])], { encoding: 'utf8' });
const duckWall = performance.now() - t0;
if (child.status !== 0) {
  console.error(`the DuckDB stage exited ${child.status}: ${child.stderr}`);
  process.exit(1);
}
const duck = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { ms: number; cpuMs: number; maxRssKiB: number };
const saved = JSON.parse(readFileSync(countsPath, 'utf8')) as { shapes: string[]; cells: [string, number][]; sql: string };
const engineCounts: EngineCounts = { shapes: new Set(saved.shapes), cells: new Map(saved.cells) };
console.log(`DuckDB: ${saved.sql}`);
const duckLoad = load();

// 2. The CLI's seeded release (before this process holds the table: their memory is never summed).
const out = join(dir, 'release');
rmSync(out, { recursive: true, force: true });
rmSync(`${out}-internal`, { recursive: true, force: true });
const command = [process.execPath, resolve('dist/cli/custos.mjs'), 'run', jobPath, '--out', out, '--test-seed', String(seed)];
const timed = spawnSync('/usr/bin/time', ['-f', '%U', 'true']).status === 0;
const env = { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' };
t0 = performance.now();
const run = timed ? spawnSync('/usr/bin/time', ['-f', 'cpu %U %S %M', ...command], { encoding: 'utf8', env, maxBuffer: 64 << 20 }) : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', env, maxBuffer: 64 << 20 });
const runMs = performance.now() - t0;
if (run.status !== 0) {
  console.error(`custos run exited ${run.status}: ${run.stderr}`);
  process.exit(1);
}
const cpu = /cpu ([\d.]+) ([\d.]+) (\d+)/.exec(run.stderr);
const cliBytes = readFileSync(join(out, 'answers.csv'));
const runLoad = load();

// 3. Custos's in-memory counting, then the release from its counts and from DuckDB's.
const cpu0 = cpuNow();
t0 = performance.now();
const imported = readJobInput(loaded);
const readMs = performance.now() - t0;
let custos: { truth: Float64Array; countMs: number; cpuMs: number; maxRssKiB: number } | undefined;
const fromCustos = seededAnswers(loaded, imported, seed, (answers, rowCount) => {
  const t = performance.now();
  const truth = trueAnswers(answers, rowCount);
  custos = { truth, countMs: performance.now() - t, cpuMs: cpuNow() - cpu0, maxRssKiB: process.resourceUsage().maxRSS };
  return truth;
});
const custosLoad = load();
let differences: ReturnType<typeof countDifferences> = [];
let compared = 0;
const fromDuckdb = seededAnswers(loaded, imported, seed, (answers) => {
  const engine = countsForPlan(answers, engineCounts);
  differences = countDifferences(answers, custos!.truth, engine);
  compared = engine.length;
  return engine;
});
const ownPath = join(dir, 'answers-custos-counts.csv');
const duckPath = join(dir, 'answers-duckdb-counts.csv');
// The CSV writer never overwrites (a --dir used before keeps its files until now).
rmSync(ownPath, { force: true });
rmSync(duckPath, { force: true });
writeAnswersCsv(ownPath, loaded, fromCustos);
writeAnswersCsv(duckPath, loaded, fromDuckdb);
console.log(`${imported.table.rowCount.toLocaleString('en-US')} rows; ${compared} distinct queries counted by both`);

const same = (path: string): boolean => cliBytes.equals(readFileSync(path));

console.log('\n| stage | wall s | CPU s | peak RSS | load average |');
console.log('|---|---:|---:|---:|---|');
console.log(`| DuckDB counting (GROUP BY GROUPING SETS over read_csv; its process) | ${seconds(duck.ms)} (process ${seconds(duckWall)}) | ${seconds(duck.cpuMs)} | ${gib(duck.maxRssKiB)} | ${duckLoad} |`);
console.log(`| Custos in-memory counting (read ${seconds(readMs)} + count pass ${seconds(custos!.countMs)}) | ${seconds(readMs + custos!.countMs)} | ${seconds(custos!.cpuMs)} | ${gib(custos!.maxRssKiB)} | ${custosLoad} |`);
console.log(`| custos run --test-seed ${seed} (CSV + JSON, whole run) | ${seconds(runMs)} | ${cpu ? (Number(cpu[1]) + Number(cpu[2])).toFixed(1) : ''} | ${cpu ? gib(Number(cpu[3])) : ''} | ${runLoad} |`);
console.log('');

let failed = false;
if (differences.length > 0) {
  failed = true;
  console.log(`${differences.length} of ${compared} exact counts differ (query: Custos, DuckDB):`);
  for (const d of differences.slice(0, 20)) console.log(`  ${d.query}: ${d.custos}, ${d.engine}`);
} else console.log(`exact counts: all ${compared} equal`);
if (same(duckPath)) console.log(`answers.csv from DuckDB's counts = custos run's, byte for byte (${cliBytes.length} bytes, ${fromDuckdb.rowCount} answers)`);
else {
  failed = true;
  console.log(`answers.csv from DuckDB's counts differs from custos run's (${duckPath} vs ${join(out, 'answers.csv')})`);
}
if (!same(ownPath)) {
  failed = true;
  console.log(`answers.csv from Custos's own counts in this process differs from custos run's (${ownPath}): the bench does not reproduce the run`);
}
console.log(`files in ${dir}`);
process.exit(failed ? 1 : 0);
