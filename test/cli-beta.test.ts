import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bucketMse } from '../src/mechanisms/beta-privacy/two-size.js';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../src/io/input/csv-reader.js';
import { parseRational } from '../src/common/exact/rational.js';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT = resolve('resources/adult/adult.csv');

function run(job: Record<string, unknown>, args: string[] = []): { code: number; stdout: string; stderr: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'custos-beta-'));
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json', '--test-seed', '4', ...args], {
    encoding: 'utf8',
    env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, dir };
}

const job = (beta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  version: 1,
  input: { path: ADULT },
  attributes: { occupation: 'sensitive', 'salary-class': 'insensitive' },
  method: { type: 'beta-privacy', beta, maxBucket: 50, domains: { occupation: 'from-data' }, ...extra },
  output: { dir: 'out', formats: ['csv', 'xlsx'] },
});

function table(path: string): string[][] {
  const { table: t } = readCsv(path, { missing: [], onBadRow: 'error' });
  return [t.columns.map((c) => c.name), ...Array.from({ length: t.rowCount }, (_, r) => t.columns.map((c) => c.dictionary[c.codes[r]!]!))];
}

describe('custos run: β-privacy on the Adult data', () => {
  it('publishes QIT and ST whose every bucket meets β, checked from the released files alone', () => {
    const betas = { default: 0.25, values: { 'Armed-Forces': '1/2', 'Prof-specialty': '3/10' } };
    const r = run(job(betas, { fakeValues: 1 }));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const [qitHeader, ...qit] = table(join(r.dir, 'out', 'qit.csv'));
    const [stHeader, ...st] = table(join(r.dir, 'out', 'st.csv'));
    expect(qitHeader).not.toContain('occupation');
    expect(qitHeader!.at(-1)).toBe('bucket');
    expect(stHeader!.slice(-3)).toEqual(['bucket', 'occupation', 'count']);
    expect(qit).toHaveLength(30162);
    const sizes = new Map<string, number>();
    for (const row of qit) sizes.set(row.at(-1)!, (sizes.get(row.at(-1)!) ?? 0) + 1);
    const listed = new Map<string, number>();
    for (const [, bucket, value, count] of st.map((row) => [null, ...row.slice(-3)] as const)) {
      const size = sizes.get(bucket!)!;
      expect(size).toBeGreaterThan(0);
      const beta = parseRational(String((betas.values as Record<string, string>)[value!] ?? betas.default));
      // Fake entries have count 1; real counts must respect ⌊β·|B|⌋ exactly.
      expect(BigInt(Number(count)) * beta.den <= beta.num * BigInt(size) || Number(count) === 1).toBe(true);
      listed.set(bucket!, (listed.get(bucket!) ?? 0) + Number(count));
    }
    for (const [bucket, size] of sizes) expect(listed.get(bucket)).toBe(size + 1);
    // Report fields of the issue.
    expect(report.method.type).toBe('beta-privacy');
    expect(report.guarantee.holds).toBe(true);
    for (const bound of Object.values(report.guarantee.maxInference) as { count: number; size: number; beta: number; holds: boolean }[]) {
      expect(bound.holds).toBe(true);
      expect(bound.count / bound.size).toBeLessThanOrEqual(bound.beta + 1e-12);
    }
    const bySizes = Object.entries(report.buckets.sizes as Record<string, number>).reduce((sum, [s, n]) => sum + Number(s) * n, 0);
    expect(bySizes).toBe(30162);
    expect(report.utility.loss).toBeGreaterThan(30162);
    // The reported loss is the release's: Σ|B|² over the buckets as QIT holds them.
    const releasedLoss = [...sizes.values()].reduce((sum, size) => sum + size * size, 0);
    expect(report.utility.loss).toBe(releasedLoss);
    expect(report.utility.mse).toBeCloseTo(bucketMse(releasedLoss, qit.length), 9);
    expect(report.utility.relativeError.release).toBeGreaterThan(0);
    expect(report.beta.corruption[0].withFakes).toBeLessThan(report.beta.corruption[0].withoutFakes + 1e-12);
    // Row order does not follow the input: the first QIT rows are not the first input rows.
    const input = table(ADULT).slice(1, 6).map((row) => row[1]);
    expect(qit.slice(0, 5).map((row) => row[1])).not.toEqual(input);
  });

  it('Anatomy as the algorithm: the release is written, its report holds no ℓ drawn from the counts, and verify passes', () => {
    const r = run(job({ default: '1/2' }, { algorithm: 'anatomy' }));
    expect(r.code, r.stderr).toBe(0);
    const external = JSON.parse(readFileSync(join(r.dir, 'out', 'report.json'), 'utf8'));
    expect(external.beta.chosen.algorithm).toBe('anatomy');
    expect(external.beta.chosen).not.toHaveProperty('l');
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(r.dir, 'out'), '--accept-test-randomness'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('infeasible β exits 2 naming every infeasible value and writes nothing', () => {
    const r = run(job({ default: 0.1, values: { 'Armed-Forces': 0.5 } }));
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stdout).error;
    expect(error.key).toBe('method.beta');
    expect(error.message).toMatch(/"Prof-specialty" \(f = 0\.133877 > β = 1\/10; the smallest β that works is 4038\/30162\)/);
    expect(error.message).toMatch(/"Craft-repair"/);
    expect(readdirSync(r.dir)).toEqual(['job.json']);
  });

  it('a value that fits no bucket up to maxBucket is named', () => {
    const r = run(job({ coefficient: 8 }));
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toMatch(/"Armed-Forces" needs buckets of at least ⌈1\/β⌉ = 419 records; raise maxBucket or β/);
  });
});
