/**
 * Issue 37 target 3 (microaggregation): partitioned MDAV on 1,000,000 records within 60 s, and its
 * information loss against exact MDAV on 200,000 (docs/BENCHMARK.md's figures). Not part of `npm test`:
 *   npx esbuild bench/microaggregation-1m.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/bench/microaggregation-1m.mjs
 *   node dist/bench/microaggregation-1m.mjs [--rows 1000000] [--k 5] [--block 5000] [--compare 200000 [--partitioned-only]]
 * The data: census-like numbers, fixed pseudo-random (xorshift32, benchmark data, not privacy
 * noise): age 17–90, weekly hours 1–99 loosely tied to age, and an income of two decimals that
 * grows with both. 1M records are written as CSV and aggregated by `custos run` end to end
 * (CSV + JSON report); --compare n runs exact MDAV and partitioned MDAV in this process on the
 * first n records and prints SSE/SST of each (z-scores, unrounded group means).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mdav, standardize, type MdavPartition } from '../src/mechanisms/microaggregation/mdav.js';
import { partitionedMdav } from '../src/mechanisms/microaggregation/partitioned.js';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, k: { type: 'string', default: '5' }, block: { type: 'string', default: '5000' }, compare: { type: 'string' }, 'partitioned-only': { type: 'boolean' }, keep: { type: 'boolean' } } });
const rows = Number(args.rows);
const k = Number(args.k);
const blockSize = Number(args.block);
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(', ');

function columns(n: number): Float64Array[] {
  let s = 12345;
  const next = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  const age = new Float64Array(n);
  const hours = new Float64Array(n);
  const income = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    age[r] = 17 + Math.floor(next() * 74);
    hours[r] = Math.max(1, Math.min(99, Math.round(40 + (next() - 0.5) * 40 + (age[r]! - 45) * 0.2)));
    income[r] = Math.round((8000 + age[r]! * 400 + hours[r]! * 300) * (0.5 + next()) * 100) / 100;
  }
  return [age, hours, income];
}

/** SSE/SST on the z-scores: the squared distance of each value from its group's mean over the total sum of squares. */
function sseOverSst(data: Float64Array, n: number, p: number, partition: MdavPartition): number {
  const sums = new Float64Array(partition.count * p);
  for (let r = 0; r < n; r++) for (let j = 0; j < p; j++) sums[partition.groupOf[r]! * p + j]! += data[r * p + j]!;
  let sse = 0;
  let sst = 0;
  for (let r = 0; r < n; r++) {
    const g = partition.groupOf[r]!;
    for (let j = 0; j < p; j++) {
      const z = data[r * p + j]!;
      sse += (z - sums[g * p + j]! / partition.sizes[g]!) ** 2;
      sst += z * z;
    }
  }
  return sse / sst;
}

if (args.compare) {
  const n = Number(args.compare);
  const data = standardize(columns(n), n);
  const t0 = performance.now();
  const partitioned = partitionedMdav(data, n, 3, k, blockSize);
  const t1 = performance.now();
  console.log(`partitioned MDAV, ${n.toLocaleString('en-US')} records, 3 columns, k = ${k}, blocks of ${blockSize}: ${((t1 - t0) / 1000).toFixed(1)} s, SSE/SST ${sseOverSst(data, n, 3, partitioned).toFixed(5)} (load ${load()})`);
  if (args['partitioned-only']) process.exit(0);
  const exact = mdav(data, n, 3, k);
  const t2 = performance.now();
  console.log(`exact MDAV, same records: ${((t2 - t1) / 1000).toFixed(1)} s, SSE/SST ${sseOverSst(data, n, 3, exact).toFixed(5)} (load ${load()})`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'custos-ma1m-'));
  const input = join(dir, 'numbers.csv');
  const [age, hours, income] = columns(rows) as [Float64Array, Float64Array, Float64Array];
  const fd = openSync(input, 'w');
  writeSync(fd, 'age,hours,income\n');
  for (let r = 0; r < rows; r += 50_000) {
    const lines: string[] = [];
    for (let i = r; i < Math.min(rows, r + 50_000); i++) lines.push(`${age[i]},${hours[i]},${income[i]!.toFixed(2)}`);
    writeSync(fd, lines.join('\n') + '\n');
  }
  closeSync(fd);
  const job = { version: 1, input: { path: input }, attributes: {}, method: { type: 'microaggregation', columns: ['age', 'hours', 'income'], k, algorithm: 'partitioned-mdav', blockSize }, output: { dir: 'release', formats: ['csv'], report: ['json'] } };
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  const before = load();
  const t0 = performance.now();
  // GNU time, where present, gives the CPU seconds: on a shared machine they move less than the wall clock.
  const timed = spawnSync('/usr/bin/time', ['-f', '%U %S %M', 'true']).status === 0;
  const command = [process.execPath, resolve('dist/cli/custos.mjs'), 'run', join(dir, 'job.json'), '--json'];
  const run = timed ? spawnSync('/usr/bin/time', ['-f', 'cpu %U %S %M', ...command], { encoding: 'utf8', maxBuffer: 64 << 20 }) : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  if (run.status !== 0) throw new Error(`custos run exited ${run.status}: ${run.stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+) (\d+)/.exec(run.stderr);
  if (cpu) console.log(`CPU ${(Number(cpu[1]) + Number(cpu[2])).toFixed(1)} s (user ${cpu[1]}, system ${cpu[2]}), peak RSS ${Math.round(Number(cpu[3]) / 1024)} MiB`);
  const report = JSON.parse(run.stdout) as { method: { internal: { sseOverSst: number; mdavMilliseconds: number; groups: number } } };
  console.log(`custos run, partitioned MDAV, ${rows.toLocaleString('en-US')} records, 3 columns, k = ${k}, blocks of ${blockSize}, CSV + JSON: ${(ms / 1000).toFixed(1)} s end to end (the groups ${(report.method.internal.mdavMilliseconds / 1000).toFixed(1)} s), ${report.method.internal.groups.toLocaleString('en-US')} groups, SSE/SST ${report.method.internal.sseOverSst.toFixed(5)}; load ${before} before, ${load()} after`);
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
