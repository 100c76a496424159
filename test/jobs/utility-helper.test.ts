import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { uniformInt } from '../../src/common/random/draws.js';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { groupRows } from '../../src/common/table/micro-groups.js';
import { tableFromRows } from '../../src/common/table/table.js';
import { drawQueryPool, poolRelativeError } from '../../src/common/utility/query-pool.js';
import { readTable } from '../../src/io/input/read-table.js';
import { parseJob } from '../../src/jobs/load-job.js';
import type { MethodContext } from '../../src/jobs/method-kit/method-context.js';
import type { NodeMechanism } from '../../src/jobs/method-kit/node-mechanism.js';
import type { MethodOutcome } from '../../src/jobs/method-kit/outcome.js';
import { startUtilityWork } from '../../src/jobs/method-kit/utility-helper.js';
import { prepareInput } from '../../src/jobs/prepare-input.js';
import { buildReport, externalVariant } from '../../src/jobs/report-builder.js';
import { nodeMechanismOf } from '../../src/mechanisms/node-registry.js';

const WORKER = pathToFileURL(resolve('dist/cli/job-worker.mjs'));

function smallTable(seed: number) {
  const random = new SeededTestRandomSource(seed);
  const rows = Array.from({ length: 3000 }, () => [`a${uniformInt(random, 4)}`, `b${uniformInt(random, 7)}`, `c${uniformInt(random, 3)}`]);
  const { columns } = tableFromRows(['a', 'b', 'c'], rows);
  const values = Uint32Array.from({ length: 3000 }, () => uniformInt(random, 5));
  const release = () => ({ sourceRow: Uint32Array.from({ length: 3100 }, () => uniformInt(random, 3000)), sensitive: [Uint32Array.from({ length: 3100 }, () => uniformInt(random, 5))] });
  return { columns, values, releases: [release(), release()] };
}

describe('the utility figure on a helper thread', () => {
  it('draws the pool a seeded run would and answers each queued release as this thread does, in order', () => {
    const { columns, values, releases } = smallTable(11);
    const work = startUtilityWork(WORKER, new SeededTestRandomSource(5), columns, values, 5);
    work.answer(releases[0]!, 0, 0.5);
    // Only the named sensitive column is answered.
    work.answer({ sourceRow: releases[1]!.sourceRow, sensitive: [releases[0]!.sensitive[0]!, releases[1]!.sensitive[0]!] }, 1, 0.3);
    const measured = work.settle();
    work.close();

    // A seeded run hands the helper a seed from its own generator: the same pool follows from it.
    const seeded = new SeededTestRandomSource(5);
    const expected = drawQueryPool(new SeededTestRandomSource(uniformInt(seeded, 2 ** 32)), columns, values, 5);
    expect(expected.queries.length).toBeGreaterThan(100);
    expect(measured).toEqual({
      queries: expected.queries.length,
      attempts: expected.attempts,
      errors: [poolRelativeError(expected, columns, releases[0]!, 0, 0.5, 5), poolRelativeError(expected, columns, releases[1]!, 0, 0.3, 5)],
    });
    // Settling again gives the same figures without asking the (closed) helper.
    expect(work.settle()).toBe(measured);

    // Handed the micro groups, the helper counts over them instead of grouping again: the same figures.
    const grouped = startUtilityWork(WORKER, new SeededTestRandomSource(5), columns, values, 5, groupRows(columns, 3000));
    grouped.answer(releases[0]!, 0, 0.5);
    grouped.answer(releases[1]!, 0, 0.3);
    expect(grouped.settle()).toEqual(measured);
  });

  it('without a helper script the same work runs here when settled, on the job generator', () => {
    const { columns, values, releases } = smallTable(3);
    const work = startUtilityWork(undefined, new SeededTestRandomSource(9), columns, values, 5);
    work.answer(releases[0]!, 0, 0.5);
    const expected = drawQueryPool(new SeededTestRandomSource(9), columns, values, 5);
    expect(work.settle()).toEqual({ queries: expected.queries.length, attempts: expected.attempts, errors: [poolRelativeError(expected, columns, releases[0]!, 0, 0.5, 5)] });
  });

  it('reports a helper that failed when settled, naming the failure', () => {
    const { columns, values } = smallTable(4);
    const work = startUtilityWork(WORKER, new SeededTestRandomSource(5), columns, values, 5);
    // A release without the sensitive column asked for.
    work.answer({ sourceRow: Uint32Array.of(0), sensitive: [] }, 0, 0.5);
    expect(() => work.settle()).toThrow(/the utility helper failed/);
  });
});

describe('a run settles the internal-only utility figure after the release folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-settle-'));
  const input = join(dir, 'people.csv');
  const random = new SeededTestRandomSource(21);
  const lines = ['age,sex,region,diagnosis'];
  for (let i = 0; i < 4000; i++) lines.push(`${20 + uniformInt(random, 5)},${uniformInt(random, 2) ? 'F' : 'M'},r${uniformInt(random, 6)},d${uniformInt(random, 4)}`);
  writeFileSync(input, lines.join('\n') + '\n');

  for (const method of [
    { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data' } },
    { type: 'uniform-perturbation', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data' } },
  ] as const) {
    it(`${method.type}: the figures come only with settle(), and the release folder's report is the same either way`, () => {
      const loaded = parseJob({ version: 1, input: { path: input }, attributes: { diagnosis: 'sensitive' }, method, output: { dir: 'out', formats: ['csv'] } }, dir);
      const imported = prepareInput(loaded.job, readTable(input, { missing: [''], onBadRow: 'error' }));
      const mechanism = nodeMechanismOf(loaded.job.method.type) as NodeMechanism<typeof loaded.job.method>;
      const ctx = (settleLater: boolean): MethodContext => ({ random: new SeededTestRandomSource(7), mode: 'run', baseDir: dir, progress: () => undefined, helperScript: WORKER, settleLater });
      const reportOf = (outcome: MethodOutcome) =>
        buildReport({ kind: 'release', job: loaded.job, inputPath: input, imported, outcome, testRandomness: true, createdAt: new Date(0), output: { dir: join(dir, 'out'), rows: 1, files: [] } });
      const external = (outcome: MethodOutcome) => externalVariant(reportOf(outcome), { summary: outcome.externalSummary, warnings: outcome.externalWarnings ?? [], job: loaded.job });

      const provisional = mechanism.run(loaded.job, imported, ctx(true));
      expect(provisional.pending).toBeDefined();
      expect(provisional.risk.bySensitive![0]!.relativeError).toEqual({});
      const settled = provisional.pending!.settle();
      provisional.pending!.abandon();
      expect(settled.pending).toBeUndefined();
      const errors = settled.risk.bySensitive![0]!.relativeError;
      expect(Object.values(errors).length).toBe(method.type === 'reconstruction-privacy' ? 2 : 1);
      for (const e of Object.values(errors)) expect(e).toBeGreaterThan(0);
      expect(settled.risk.bySensitive![0]!.queries).toBe(5000);
      if (method.type === 'reconstruction-privacy') {
        expect(reportOf(provisional).summary.join(' ')).toContain('mean relative error of n/a');
        expect(reportOf(settled).summary.join(' ')).toMatch(/mean relative error of 0\.\d{4} \(plain randomized response: 0\.\d{4}\)/);
      }
      // What the release folder carries does not depend on the figures.
      expect(external(settled)).toEqual(external(provisional));

      // Without settleLater the method waits for its figures itself: the same run, the same figures.
      const direct = mechanism.run(loaded.job, imported, ctx(false));
      expect(direct.pending).toBeUndefined();
      expect(direct.risk.bySensitive![0]!.relativeError).toEqual(errors);
    });
  }
});

describe('the copies posted to the utility helper', () => {
  it('are in shared memory with the same codes, and an array already shared is not copied again', async () => {
    const { sharedCopy } = await import('../../src/jobs/method-kit/utility-helper.js');
    const codes = Uint32Array.from({ length: 1000 }, (_, i) => (i * 7919) % 13);
    const copy = sharedCopy(codes);
    expect(copy.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(copy).not.toBe(codes);
    expect(Array.from(copy)).toEqual(Array.from(codes));
    expect(sharedCopy(copy)).toBe(copy);
  });
});
