/**
 * Issue 32 item 11: the long stages report progress while they work, and their limits refuse with
 * exit code 2 (a JobError) naming the key and the limit, before the work starts where it can be
 * estimated. Runs are in process with a context that collects every progress event.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobWith } from '../src/common/job/job-parts.js';
import { maskingHierarchy } from '../src/common/recoding/hierarchy.js';
import { quasiColumn } from '../src/common/recoding/search/recoding-input.js';
import { optimalRecoding, SearchTooLarge, searchWorkLimit } from '../src/common/recoding/search/search.js';
import { SeededTestRandomSource } from '../src/common/random/source.js';
import { tableFromRows, type Table } from '../src/common/table/table.js';
import type { ImportedTable } from '../src/io/input/import-types.js';
import { JobError } from '../src/common/job/job-error.js';
import type { MethodContext } from '../src/jobs/method-kit/method-context.js';
import { searchTooLargeText } from '../src/jobs/method-kit/search-limit.js';
import { parseJob } from '../src/jobs/load-job.js';
import type { GlobalRecodingSpec } from '../src/mechanisms/global-recoding/definition.js';
import { LOCAL_SUPPRESSION_WORK_LIMIT, localSuppression, LocalSuppressionTooLarge } from '../src/mechanisms/global-recoding/local-suppression.js';
import { MAX_INDEXED_COLUMNS } from '../src/mechanisms/global-recoding/wildcard-index.js';
import { runGlobalRecoding } from '../src/mechanisms/global-recoding/node/run.js';
import type { MicroaggregationSpec } from '../src/mechanisms/microaggregation/definition.js';
import { MAX_MDAV_WORK, runMicroaggregation } from '../src/mechanisms/microaggregation/node/run.js';
import { latticeColumn } from '../src/mechanisms/safe-k-anonymity/lattice.js';
import { scoreLattice } from '../src/mechanisms/safe-k-anonymity/lattice-rollup.js';
import { scoreRule } from '../src/mechanisms/safe-k-anonymity/lattice-score.js';

interface Event {
  readonly stage: string;
  readonly fraction: number;
}

function context(events: Event[]): MethodContext {
  return { random: new SeededTestRandomSource(3), mode: 'run', baseDir: '.', progress: (stage, fraction) => events.push({ stage, fraction }) };
}

function imported(table: Table): ImportedTable {
  return { table, format: 'csv', sha256: '0'.repeat(64), bytes: 0, rejectedRows: [], rejectedRowCount: 0 };
}

function parsed<S>(method: Record<string, unknown>, attributes: Record<string, string>): JobWith<S> {
  const { job } = parseJob({ version: 1, input: { path: 'in.csv' }, attributes, method, output: { dir: 'out' } }, '.');
  return job as unknown as JobWith<S>;
}

/** Pseudo-random digits, fixed (xorshift32: test data, not privacy noise). */
function digits(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % 10;
  };
}

/** Events of one stage strictly inside (0, 1): reported while the stage worked, not only at its ends. */
function during(events: readonly Event[], stage: string, from: number, to: number): number[] {
  return events.filter((e) => e.stage === stage && e.fraction > from && e.fraction < to).map((e) => e.fraction);
}

const increasing = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || x >= xs[i - 1]!);

describe('progress during the long stages', () => {
  it('microaggregation reports MDAV\'s rounds in the release stage', () => {
    const next = digits(5);
    const table = tableFromRows(['x', 'y'], Array.from({ length: 2000 }, () => [String(next() * 100 + next()), String(next())]));
    const job = parsed<MicroaggregationSpec>({ type: 'microaggregation', columns: ['x', 'y'], k: 2 }, { x: 'quasi', y: 'quasi' });
    const events: Event[] = [];
    runMicroaggregation(job, imported(table), job.method, context(events));
    // 2,000 records at k = 2: 500 rounds, a report every 16.
    const inside = during(events, 'release', 0, 0.9);
    expect(inside.length).toBeGreaterThanOrEqual(20);
    expect(increasing(inside)).toBe(true);
  });

  it('local suppression reports its passes in the release stage', () => {
    const next = digits(9);
    // Four columns of ten values, 3,000 records: most combinations are rare, so many records are below k.
    const rows = Array.from({ length: 3000 }, () => [0, 1, 2, 3].map(() => String(next())));
    const table = tableFromRows(['a', 'b', 'c', 'd'], rows);
    const job = parsed<GlobalRecodingSpec>({ type: 'global-recoding', models: [], localSuppression: { k: 3, importance: [] } }, { a: 'quasi', b: 'quasi', c: 'quasi', d: 'quasi' });
    const events: Event[] = [];
    const outcome = runGlobalRecoding(job, imported(table), job.method, context(events));
    expect(outcome.guarantee.holds).toBe(true);
    const inside = during(events, 'release', 0.05, 0.95);
    expect(inside.length).toBeGreaterThanOrEqual(10);
    expect(increasing(inside)).toBe(true);
  });

  it('the lattice search reports the share of the lattice covered in the analyze stage', () => {
    const next = digits(13);
    const names = ['a', 'b', 'c', 'd', 'e'];
    // Five 3-digit codes, masked digit by digit: 4^5 = 1,024 nodes; k = 4 on 400 records keeps the search busy.
    const rows = Array.from({ length: 400 }, () => names.map(() => `${next()}${next()}${next()}`));
    const table = tableFromRows(names, rows);
    const hierarchies = Object.fromEntries(names.map((n) => [n, { type: 'masking', length: 3 }]));
    const job = parsed<GlobalRecodingSpec>({ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 4 }], suppressionLimit: 0.05, hierarchies }, Object.fromEntries(names.map((n) => [n, 'quasi'])));
    const events: Event[] = [];
    runGlobalRecoding(job, imported(table), job.method, context(events));
    const inside = during(events, 'analyze', 0.5, 1);
    expect(inside.length).toBeGreaterThanOrEqual(1);
    expect(increasing(inside)).toBe(true);
  });

  it('safe k-anonymity\'s lattice scoring reports the share of the lattice scored or bounded', () => {
    const next = digits(21);
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    // Seven 3-digit codes masked digit by digit: 4^7 = 16,384 nodes, a report every 4,096.
    const all = [...names, 'g'];
    const table = tableFromRows(all, Array.from({ length: 500 }, () => all.map(() => `${next()}${next()}${next()}`)));
    const columns = table.columns.map((c) => latticeColumn(c, maskingHierarchy(3)));
    const sample = Uint32Array.from({ length: 500 }, (_, r) => r);
    const fractions: number[] = [];
    scoreLattice(scoreRule(5, columns.length, sample.length), columns, sample, { onProgress: (f) => fractions.push(f) });
    expect(fractions.filter((f) => f > 0 && f < 1).length).toBeGreaterThanOrEqual(3);
    expect(increasing(fractions)).toBe(true);
    expect(fractions[fractions.length - 1]).toBe(1);
  });
});

describe('limits set from measured cost', () => {
  it('microaggregation refuses work above its limit before starting, naming method.k and the least k within it', () => {
    // 120,000 records of one column at k = 2: 120,000² · 3 / 4 = 1.08e10 units, over 1e10.
    const table = tableFromRows(['x'], Array.from({ length: 120_000 }, (_, r) => [String(r % 97)]));
    const job = parsed<MicroaggregationSpec>({ type: 'microaggregation', columns: ['x'], k: 2 }, { x: 'quasi' });
    const events: Event[] = [];
    let error: unknown;
    try {
      runMicroaggregation(job, imported(table), job.method, context(events));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JobError);
    expect((error as JobError).message).toMatch(/^method\.k: MDAV on 120,000 records of 1 column\(s\) with k = 2 .* more than the limit of 10,000,000,000 .* use k ≥ 3,/);
    expect(events.some((e) => e.stage === 'release')).toBe(false);
    // k = 3 is within it (1.08e10 · 2/3 = 7.2e9): the same table is not refused for size.
    expect(MAX_MDAV_WORK).toBe(10_000_000_000);
  });

  it('local suppression refuses a first pass above its limit before any suppression, naming method.localSuppression', () => {
    // 31 quasi-identifiers are beyond the wildcard index (30 columns), so every record below k is compared
    // with every tuple: 40,000 distinct records at k = 2 make 40,000 × 40,000 = 1.6e9 comparisons > 1e9.
    const names = Array.from({ length: MAX_INDEXED_COLUMNS + 1 }, (_, j) => `q${j}`);
    const table = tableFromRows(names, Array.from({ length: 40_000 }, (_, r) => names.map(() => String(r))));
    const roles = Object.fromEntries(names.map((n) => [n, 'quasi' as const]));
    const job = parsed<GlobalRecodingSpec>({ type: 'global-recoding', models: [], localSuppression: { k: 2, importance: [] } }, roles);
    const events: Event[] = [];
    let refusal: unknown;
    const started = performance.now();
    try {
      runGlobalRecoding(job, imported(table), job.method, context(events));
    } catch (error) {
      refusal = error;
    }
    console.log(`31 columns × 40,000 records refused after ${Math.round(performance.now() - started)} ms`);
    expect(refusal).toBeInstanceOf(JobError);
    expect((refusal as Error).message).toMatch(/^method\.localSuppression: local suppression would compare 40,000 records below k with 40,000 distinct tuples \(1,600,000,000 comparisons or more\), more than its limit of 1,000,000,000/);
    expect(during(events, 'release', 0.05, 1)).toEqual([]);
    expect(LOCAL_SUPPRESSION_WORK_LIMIT).toBe(1_000_000_000);
    // The same records in 2 columns go through the index: a few lookups each, far within the limit.
    const indexed = localSuppression({ codes: [0, 1].map(() => Uint32Array.from({ length: 40_000 }, (_, r) => r)), rowCount: 40_000, k: 2, order: [0, 1] });
    expect(indexed.work).toBeLessThan(40_000 * 200);
    // The greedy's own budget: a smaller one stops it the same way.
    const codes = [Uint32Array.from({ length: 100 }, (_, r) => r + 1)];
    const within = localSuppression({ codes, rowCount: 100, k: 2, order: [0] });
    expect(within.frequencies.every((f) => f >= 2)).toBe(true);
    expect(() => localSuppression({ codes, rowCount: 100, k: 2, order: [0] }, { maxWork: within.work - 1 })).toThrow(LocalSuppressionTooLarge);
  });

  it('a lattice search stops at its work limit (classes formed), and the refusal names the limit', () => {
    const next = digits(17);
    const names = ['a', 'b', 'c', 'd'];
    const table = tableFromRows(names, Array.from({ length: 300 }, () => names.map(() => `${next()}${next()}`)));
    const columns = table.columns.map((c) => quasiColumn(c, maskingHierarchy(2)));
    const input = { columns, rowCount: 300, models: [{ type: 'k-anonymity' as const, k: 50 }], suppressionLimit: 0.02, measure: 'loss' as const };
    const full = optimalRecoding(input, { prune: false });
    let error: unknown;
    try {
      optimalRecoding(input, { prune: false, maxWork: 5_000 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SearchTooLarge);
    const tooLarge = error as SearchTooLarge;
    expect(tooLarge.visited).toBeLessThan(full.evaluated);
    expect(searchTooLargeText(tooLarge, 300)).toMatch(/stopped at its limit of 5,000 classes formed for 300 records .* use fewer hierarchy levels/);
    // Within the limit the result is the unbounded search's.
    expect(optimalRecoding(input, { prune: false, maxWork: 10_000_000 }).optimum).toEqual(full.optimum);
    expect(searchWorkLimit(2000)).toBe(150_800_000);
  });
});

describe('limits from the command line', () => {
  it('exits 2 naming method.k when MDAV would exceed its limit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-bounded-'));
    writeFileSync(join(dir, 'in.csv'), `x\n${Array.from({ length: 120_000 }, (_, r) => r % 97).join('\n')}\n`);
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'in.csv' }, attributes: { x: 'quasi' }, method: { type: 'microaggregation', columns: ['x'], k: 2 }, output: { dir: 'out', formats: ['csv'], report: ['json'] } }));
    const r = spawnSync(process.execPath, [resolve('dist/cli/custos.mjs'), 'run', join(dir, 'job.json')], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/method\.k: MDAV on 120,000 records .* more than the limit of 10,000,000,000/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).sort()).toEqual(['in.csv', 'job.json']);
  });
});
