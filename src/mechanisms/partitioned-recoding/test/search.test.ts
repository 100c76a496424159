import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobWith } from '../../../common/job/job-parts.js';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { generalizeColumn, intervalHierarchy } from '../../../common/recoding/hierarchy.js';
import { latticeNodesOf } from '../../../common/recoding/lattice.js';
import { randomParts } from '../../../common/recoding/partitioned.js';
import { maxSuppressed } from '../../../common/recoding/search/evaluate.js';
import { tableFromRows, type Table } from '../../../common/table/table.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { JobError } from '../../../common/job/job-error.js';
import { parseJob } from '../../../jobs/load-job.js';
import type { PartitionedRecodingSpec } from '../definition.js';
import { runPartitionedRecoding } from '../node/run.js';

function imported(table: Table): ImportedTable {
  return { table, format: 'csv', sha256: '0'.repeat(64), bytes: 0, rejectedRows: [], rejectedRowCount: 0 };
}

function run(table: Table, method: Record<string, unknown>, attributes: Record<string, string>, seed: number, mode: 'assess' | 'run' = 'assess') {
  const { job } = parseJob({ version: 1, input: { path: 'in.csv' }, attributes, method, output: { dir: 'out' } }, '.');
  const j = job as JobWith<PartitionedRecodingSpec>;
  return runPartitionedRecoding(j, imported(table), j.method, { random: new SeededTestRandomSource(seed), mode, baseDir: '.', progress: () => {} });
}

type Model = { type: 'k-anonymity'; k: number } | { type: 'l-diversity'; l: number } | { type: 't-closeness'; t: number };

/**
 * The definition, node by node, without the search's engine: generalize every quasi-identifier at
 * the node's levels, form the classes of every part, delete those that fail the model, and keep
 * the node when the deleted records fit the limit. Discernibility and precision as ARX defines them.
 */
function bruteForce(table: Table, quasi: readonly string[], widths: readonly (readonly number[])[], sensitive: string | undefined, split: readonly Uint32Array[], model: Model, limit: number, measure: 'discernibility' | 'precision') {
  const n = table.rowCount;
  const columns = quasi.map((name) => table.columns.find((c) => c.name === name)!);
  const hierarchies = widths.map((w) => (w.length > 0 ? intervalHierarchy(w) : undefined));
  const depths = hierarchies.map((h) => h?.depth ?? 1);
  const s = sensitive ? table.columns.find((c) => c.name === sensitive)! : undefined;
  const results = latticeNodesOf(depths).map((node) => {
    const codes = columns.map((c, j) => generalizeColumn(c, hierarchies[j], node[j]!).codes);
    let deleted = 0;
    let dm = 0;
    for (const rows of split) {
      // t-closeness: the part's own distribution of sensitive values, every record of the part counted.
      const partShare = new Map<number, number>();
      if (s) for (const r of rows) partShare.set(s.codes[r]!, (partShare.get(s.codes[r]!) ?? 0) + 1 / rows.length);
      const classes = new Map<string, number[]>();
      for (const r of rows) {
        const key = codes.map((c) => c[r]).join(',');
        let members = classes.get(key);
        if (!members) classes.set(key, (members = []));
        members.push(r);
      }
      for (const members of classes.values()) {
        let ok: boolean;
        if (model.type === 'k-anonymity') ok = members.length >= model.k;
        else if (model.type === 'l-diversity') ok = new Set(members.map((r) => s!.codes[r])).size >= model.l;
        else {
          const mine = new Map<number, number>();
          for (const r of members) mine.set(s!.codes[r]!, (mine.get(s!.codes[r]!) ?? 0) + 1 / members.length);
          let distance = 0;
          for (const v of new Set([...partShare.keys(), ...mine.keys()])) distance += Math.abs((mine.get(v) ?? 0) - (partShare.get(v) ?? 0));
          ok = distance / 2 <= model.t + 1e-9;
        }
        if (ok) dm += members.length * members.length;
        else {
          deleted += members.length;
          dm += n * members.length;
        }
      }
    }
    const precision = depths.reduce((sum, d, j) => sum + ((n - deleted) * (d === 1 ? 0 : node[j]! / (d - 1)) + deleted) / n, 0) / depths.length;
    return { node, satisfies: deleted <= maxSuppressed(limit, n), measure: measure === 'discernibility' ? dm : precision };
  });
  return results;
}

const caseArb = fc
  .record({
    widths: fc.array(fc.constantFrom([2], [2, 4], [3], [2, 4, 8], [] as number[]), { minLength: 1, maxLength: 3 }),
    rows: fc.integer({ min: 2, max: 40 }),
    parts: fc.integer({ min: 1, max: 3 }),
    model: fc.oneof(
      fc.record({ type: fc.constant('k-anonymity' as const), k: fc.integer({ min: 2, max: 4 }) }),
      fc.record({ type: fc.constant('l-diversity' as const), l: fc.integer({ min: 2, max: 3 }) }),
      fc.record({ type: fc.constant('t-closeness' as const), t: fc.constantFrom(0.2, 0.35, 0.5) }),
    ),
    limit: fc.constantFrom(0, 0.1, 0.3, 1),
    measure: fc.constantFrom('discernibility' as const, 'precision' as const),
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  .filter((p) => p.widths.some((w) => w.length > 0) && p.parts <= p.rows)
  .chain((p) => fc.record({ p: fc.constant(p), records: fc.array(fc.tuple(fc.array(fc.integer({ min: 0, max: 8 }), { minLength: p.widths.length, maxLength: p.widths.length }), fc.integer({ min: 0, max: 2 })), { minLength: p.rows, maxLength: p.rows }) }));

describe('partitioned recoding with levels "search"', () => {
  it('finds the best recoding shared by every part, as a brute force over the lattice does, and every released class of every part meets the model, t-closeness against its own part (property)', () => {
    fc.assert(
      fc.property(caseArb, ({ p, records }) => {
        const quasi = p.widths.map((_, j) => `q${j}`);
        const table = tableFromRows([...quasi, 'diagnosis'], records.map(([q, s]) => [...q.map(String), `d${s}`]), []);
        const hierarchies = Object.fromEntries(quasi.flatMap((name, j) => (p.widths[j]!.length > 0 ? [[name, { type: 'interval', widths: p.widths[j] }]] : [])));
        const attributes = { ...Object.fromEntries(quasi.map((q) => [q, 'quasi'])), diagnosis: p.model.type === 'k-anonymity' ? 'insensitive' : 'sensitive' };
        const method = { type: 'partitioned-recoding', parts: p.parts, model: p.model, hierarchies, levels: 'search', suppressionLimit: p.limit, measure: p.measure };
        const split = randomParts(new SeededTestRandomSource(p.seed), table.rowCount, p.parts);
        const all = bruteForce(table, quasi, p.widths, p.model.type === 'k-anonymity' ? undefined : 'diagnosis', split, p.model, p.limit, p.measure);
        const satisfying = all.filter((r) => r.satisfies);
        let outcome: ReturnType<typeof run>;
        try {
          outcome = run(table, method, attributes, p.seed, 'run');
        } catch (error) {
          // Refused exactly when no node of the lattice satisfies.
          expect(error).toBeInstanceOf(JobError);
          expect(satisfying).toEqual([]);
          return;
        }
        expect(satisfying.length).toBeGreaterThan(0);
        const best = Math.min(...satisfying.map((r) => r.measure));
        const chosen = quasi.map((q) => outcome.method.levels![q]!);
        const mine = all.find((r) => r.node.every((level, j) => level === chosen[j]))!;
        expect(mine.satisfies).toBe(true);
        expect(mine.measure).toBeCloseTo(best, 9);
        expect(outcome.method.internal!['measureValue']).toBeCloseTo(best, 9);
        // Every part's released classes meet the model, and what was deleted fits the limit.
        expect(outcome.guarantee.holds).toBe(true);
        expect(outcome.suppressed).toBeLessThanOrEqual(maxSuppressed(p.limit, table.rowCount));
        for (const part of outcome.anonymity!.parts!) {
          if (part.classes === 0) continue;
          if (p.model.type === 'k-anonymity') expect(part.worst).toBeGreaterThanOrEqual(p.model.k);
          else if (p.model.type === 'l-diversity') expect(part.worst).toBeGreaterThanOrEqual(p.model.l);
          else expect(part.worst).toBeLessThanOrEqual(p.model.t + 1e-9);
        }
      }),
      { numRuns: 150, seed: 20261125 },
    );
  });



  it('keeps the suppression limit and the measure to the search: fixed levels refuse them', () => {
    expect(() => parseJob({ version: 1, input: { path: 'in.csv' }, method: { type: 'partitioned-recoding', parts: 1, model: { type: 'k-anonymity', k: 2 }, suppressionLimit: 0.1 } }, '.')).toThrow(/belong to levels "search"/);
  });
});
