import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArb } from '../../../../mechanisms/global-recoding/test/random-cases.js';
import type { PrivacyModel } from '../models.js';
import { bruteForcePartitionedRecoding, optimalPartitionedRecoding, partsAt, type PartitionedSearchInput } from '../partitioned-search.js';

const near = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** The models partitioned recoding offers. */
const partModelArb: fc.Arbitrary<PrivacyModel> = fc.oneof(
  fc.record({ type: fc.constant('k-anonymity' as const), k: fc.integer({ min: 2, max: 4 }) }),
  fc.record({ type: fc.constant('distinct-l-diversity' as const), l: fc.integer({ min: 2, max: 3 }) }),
  fc.record({ type: fc.constant('t-closeness' as const), t: fc.constantFrom(0.1, 0.2, 0.35, 0.5), distance: fc.constant('equal' as const) }),
);

const partitionedArb: fc.Arbitrary<PartitionedSearchInput> = fc
  .record({ c: caseArb, model: partModelArb, parts: fc.integer({ min: 1, max: 3 }), seed: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 60, maxLength: 60 }) })
  .map(({ c, model, parts, seed }) => {
    const n = c.input.rowCount;
    const of = Array.from({ length: n }, (_, r) => seed[r]! % parts);
    const rows = Array.from({ length: parts }, (_, p) => Uint32Array.from(of.flatMap((q, r) => (q === p ? [r] : []))));
    return { ...c.input, models: [model], parts: rows.filter((r) => r.length > 0) };
  });

/** Every class of every part, recomputed from the records without the engine: does each kept one meet the model, and are the deleted records the failing classes'? */
function independentCheck(input: PartitionedSearchInput, node: readonly number[]): { deleted: number; ok: boolean } {
  const model = input.models[0]!;
  let deleted = 0;
  for (const rows of input.parts) {
    const classes = new Map<string, number[]>();
    for (const r of rows) {
      const key = input.columns.map((c, j) => c.lift[node[j]!]![c.codes[r]!]).join('|');
      classes.set(key, [...(classes.get(key) ?? []), r]);
    }
    const overall = new Map<number, number>();
    for (const r of rows) overall.set(input.sensitive!.codes[r]!, (overall.get(input.sensitive!.codes[r]!) ?? 0) + 1);
    for (const members of classes.values()) {
      const counts = new Map<number, number>();
      for (const r of members) counts.set(input.sensitive!.codes[r]!, (counts.get(input.sensitive!.codes[r]!) ?? 0) + 1);
      let meets: boolean;
      if (model.type === 'k-anonymity') meets = members.length >= model.k;
      else if (model.type === 'distinct-l-diversity') meets = counts.size >= model.l;
      else if (model.type === 't-closeness') {
        let d = 0;
        for (const v of new Set([...overall.keys(), ...counts.keys()])) d += Math.abs((counts.get(v) ?? 0) / members.length - (overall.get(v) ?? 0) / rows.length);
        meets = d / 2 <= model.t + 1e-9;
      } else throw new Error('unexpected model');
      if (!meets) deleted += members.length;
    }
  }
  return { deleted, ok: true };
}

describe('optimal partitioned recoding', () => {
  it('equals the brute force over all lattice nodes, and its release meets the model in every class of every part (property)', () => {
    let found = 0;
    let severalParts = 0;
    fc.assert(
      fc.property(partitionedArb, (input) => {
        const search = optimalPartitionedRecoding(input);
        const brute = bruteForcePartitionedRecoding(input);
        expect(search.optimum === undefined).toBe(brute.optimum === undefined);
        if (search.satisfyingExact) expect(search.satisfying).toBe(brute.satisfying);
        else expect(search.satisfying).toBeLessThanOrEqual(brute.satisfying);
        if (!search.optimum) return;
        found++;
        if (input.parts.length > 1) severalParts++;
        expect(near(search.optimum.measure, brute.optimum!.measure)).toBe(true);
        expect(search.optimum.node).toEqual(brute.optimum!.node);
        expect(search.optimum.suppressedRecords).toBeLessThanOrEqual(Math.floor(input.suppressionLimit * input.rowCount));
        // The released classes: those the engine keeps at the optimum, checked from the records.
        const { table, check } = partsAt(input, search.optimum.node);
        const independent = independentCheck(input, search.optimum.node);
        expect(check.suppressedRecords).toBe(independent.deleted);
        expect(check.suppressedRecords).toBe(search.optimum.suppressedRecords);
        let at = 0;
        const model = input.models[0]!;
        for (const part of table.parts) {
          for (let c = 0; c < part.count; c++, at++) {
            if (check.suppressed[at]) continue;
            if (model.type === 'k-anonymity') expect(part.sizes[c]).toBeGreaterThanOrEqual(model.k);
            if (model.type === 'distinct-l-diversity') {
              let distinct = 0;
              for (let v = 0; v < part.values; v++) if (part.hist![c * part.values + v]! > 0) distinct++;
              expect(distinct).toBeGreaterThanOrEqual(model.l);
            }
          }
        }
      }),
      { numRuns: 300, seed: 20261125 },
    );
    expect(found).toBeGreaterThan(50);
    expect(severalParts).toBeGreaterThan(20);
  });

  it('judges each part on its own: two parts each of one class of 2 fail 3-anonymity that their union would meet', () => {
    // One quasi-identifier without hierarchy, values a a b b: one part {a, b}, the other {a, b}: classes of 1 in each part.
    const codes = Uint32Array.from([1, 1, 2, 2]);
    const column = { name: 'q', codes, depth: 1, cardinality: [3], up: [], lift: [Uint32Array.from([0, 1, 2])], share: [Float64Array.from([0.5, 0.5, 0.5])], domainSize: 2, labels: [['', 'a', 'b']] };
    const input: PartitionedSearchInput = { columns: [column], rowCount: 4, parts: [Uint32Array.from([0, 2]), Uint32Array.from([1, 3])], models: [{ type: 'k-anonymity', k: 2 }], suppressionLimit: 0.5, measure: 'loss' };
    expect(optimalPartitionedRecoding(input).optimum).toBeUndefined();
    expect(optimalPartitionedRecoding({ ...input, parts: [Uint32Array.from([0, 1, 2, 3])] }).optimum?.suppressedRecords).toBe(0);
  });
});
