/**
 * A chain as one candidate of `custos compare`: its guarantee is the composed statement, its risk the
 * larger of the identity attack and the attribute attack on the final release, and its utility the
 * common pool answered from the final release, whose carried-over columns are read through the
 * identity step's rows (microaggregation releases its rows shuffled).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawCommonPool, estimatePool } from '../../src/common/compare/common-pool.js';
import type { Comparison } from '../../src/common/compare/comparison.js';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { readTable } from '../../src/io/input/read-table.js';
import { chainReleasedRecords } from '../../src/jobs/chain/compare-chain.js';
import { runChainSteps } from '../../src/jobs/chain/run-chain.js';
import { recordsAsReleased } from '../../src/jobs/method-kit/compare-kit.js';
import { parseJob } from '../../src/jobs/load-job.js';
import { prepareInput } from '../../src/jobs/prepare-input.js';
import { ATTRIBUTES, BETA, custos, RECODING, register } from './chain-job.js';

const jobWith = (method: unknown, attributes: Record<string, string> = ATTRIBUTES) => ({ version: 1, input: { path: 'register.csv' }, attributes, output: { dir: 'out' }, method });

describe('custos compare with a chain', () => {
  it('compares the chain as one candidate beside its steps alone, and a grid varies a step\'s parameter', () => {
    const dir = register([RECODING, BETA]);
    writeFileSync(join(dir, 'recode.json'), JSON.stringify(jobWith(RECODING)));
    writeFileSync(join(dir, 'beta.json'), JSON.stringify(jobWith(BETA)));
    const r = custos(dir, 'compare', 'job.json', 'recode.json', 'beta.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    const comparison = JSON.parse(r.stdout) as Comparison;
    expect(comparison.skipped).toEqual([]);
    const [chain, recode, beta] = comparison.candidates;
    expect(chain!.method).toEqual({ type: 'global-recoding,beta-privacy', title: 'Optimal global recoding, then β-privacy bucketization' });
    expect(chain!.guarantee.label).toBe(`${recode!.guarantee.label}; then ${beta!.guarantee.label} within the released groups`);
    expect(chain!.guarantee.statement).toMatch(/^Two steps, the second run on the first step's release\./);
    expect(chain!.guarantee.holds).toBe(true);
    expect(chain!.parameters).toMatch(/^step 1: models 5-anonymity.*; step 2: sensitive diagnosis/);
    // The identity attack is the recoding's (deterministic: the same classes); the chain's risk is the larger attack.
    expect(chain!.risk.measure).toMatch(/^the larger of two attacks on the final release: \(1\) identity/);
    expect(chain!.risk.share).toBeGreaterThanOrEqual(recode!.risk.share);
    expect(chain!.risk.measure).toContain(`${(100 * recode!.risk.share).toFixed(2)} %`);
    expect(chain!.releasedRecords).toBe(400);
    expect(chain!.utility.relativeError).toBeGreaterThan(0);

    const grid = custos(dir, 'compare', 'job.json', '--grid', '1.beta.default=1/4,1/3', '--json');
    expect(grid.status, grid.stderr).toBe(0);
    const varied = JSON.parse(grid.stdout) as Comparison;
    expect(varied.candidates.map((c) => c.guarantee.label)).toEqual([
      `${recode!.guarantee.label}; then β-privacy, β = 1/4 (with any per-value β of the job) within the released groups`,
      `${recode!.guarantee.label}; then β-privacy, β = 1/3 (with any per-value β of the job) within the released groups`,
    ]);
  });

  it('skips a chain whose step cannot run, naming the step\'s key', () => {
    const dir = register([{ ...RECODING, models: [{ type: 'k-anonymity', k: 500 }] }, BETA]);
    writeFileSync(join(dir, 'recode.json'), JSON.stringify(jobWith(RECODING)));
    const r = custos(dir, 'compare', 'job.json', 'recode.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    const comparison = JSON.parse(r.stdout) as Comparison;
    expect(comparison.skipped).toMatchObject([{ id: 1, stage: 'run', key: 'method[0].models', method: { type: 'global-recoding,beta-privacy' } }]);
  });
});

describe('the final release as the common pool reads it', () => {
  it('answers every query on the carried-over columns as the identity step\'s release does, though microaggregation shuffled its rows', () => {
    const dir = register(null);
    const attributes = { ...ATTRIBUTES, birth_date: 'insensitive', sex: 'insensitive', municipality: 'quasi', length_of_stay: 'quasi' };
    const loaded = parseJob(jobWith([{ type: 'microaggregation', columns: ['length_of_stay'], k: 5 }, BETA], attributes), dir, undefined, { chains: true });
    const read = readTable(join(dir, 'register.csv'), { missing: [], onBadRow: 'error', sheet: null });
    const imported = prepareInput(loaded.job, read);
    const outcomes = runChainSteps(loaded.chain!.steps, imported, { random: new SeededTestRandomSource(3), mode: 'run', measureUtility: false, baseDir: dir, progress: () => undefined });
    const truth = imported.table;
    // Queries on the columns the chain carries over (not the bucketized diagnosis): the identity step's release answers them exactly as released.
    const carried = truth.columns.filter((c) => ['length_of_stay', 'municipality', 'sex', 'birth_date'].includes(c.name));
    const pool = drawCommonPool(new SeededTestRandomSource(5), carried, truth.rowCount);
    expect(pool.queries.length).toBeGreaterThan(100);
    const chain = estimatePool(pool, chainReleasedRecords(outcomes, truth, carried));
    const identity = estimatePool(pool, recordsAsReleased(outcomes.identity, truth, carried));
    const diff = Math.max(...chain.map((x, i) => Math.abs(x - identity[i]!)));
    expect(diff).toBeLessThan(1e-9);
  });
});
