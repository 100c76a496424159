import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generalizeColumn, intervalHierarchy, type GeneralizedColumn } from '../hierarchy.js';
import { generalizedQueryError } from '../query-error.js';
import { uniformInt } from '../../random/draws.js';
import { SeededTestRandomSource, type RandomSource } from '../../random/source.js';
import { tableFromRows, type Column } from '../../table/table.js';

/** The definition, record by record: the same random queries, every row scanned. */
function bruteForce(source: RandomSource, original: readonly Column[], generalized: readonly GeneralizedColumn[], released: Uint32Array, sampling: number, size: number, maxAttempts: number): { error: number; queries: number } {
  const n = original[0]!.codes.length;
  const minAnswer = Math.max(1, Math.ceil(0.001 * n));
  let total = 0;
  let kept = 0;
  for (let attempt = 0; attempt < maxAttempts && kept < size; attempt++) {
    const d = 1 + uniformInt(source, Math.min(3, original.length));
    const pool = original.map((_, j) => j);
    const attrs: number[] = [];
    for (let i = 0; i < d; i++) attrs.push(pool.splice(uniformInt(source, pool.length), 1)[0]!);
    const values = attrs.map((j) => 1 + uniformInt(source, Math.max(1, original[j]!.distinct)));
    let answer = 0;
    for (let r = 0; r < n; r++) if (attrs.every((j, i) => original[j]!.codes[r] === values[i])) answer++;
    if (answer < minAnswer) continue;
    let estimate = 0;
    for (const r of released) {
      let w = 1;
      for (let i = 0; i < d; i++) {
        const j = attrs[i]!;
        // Which original values does this record's generalized value cover?
        const covered = new Set<number>();
        for (let s = 0; s < n; s++) if (generalized[j]!.codes[s] === generalized[j]!.codes[r]) covered.add(original[j]!.codes[s]!);
        w *= covered.has(values[i]!) ? 1 / covered.size : 0;
      }
      estimate += w;
    }
    total += Math.abs(estimate / sampling - answer) / answer;
    kept++;
  }
  return { error: kept === 0 ? Number.NaN : total / kept, queries: kept };
}

describe('count-query error of a generalized release', () => {
  it('equals the record-by-record definition (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 20, max: 59 }), fc.constantFrom('a', 'b', 'c'), fc.constantFrom('x', 'y')), { minLength: 30, maxLength: 120 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer(),
        (rows, level, seed) => {
          const table = tableFromRows(['age', 'g', 'h'], rows.map(([a, g, h]) => [String(a), g, h]));
          const generalized = [generalizeColumn(table.columns[0]!, intervalHierarchy([5, 10]), level), generalizeColumn(table.columns[1]!, undefined, 0), generalizeColumn(table.columns[2]!, undefined, 0)];
          const released = Uint32Array.from({ length: table.rowCount }, (_, i) => i).filter((i) => (i * 7 + seed) % 3 !== 0);
          const fast = generalizedQueryError(new SeededTestRandomSource(seed), table.columns, generalized, released, 0.5, { size: 40, maxAttempts: 400 });
          const slow = bruteForce(new SeededTestRandomSource(seed), table.columns, generalized, released, 0.5, 40, 400);
          expect(fast.queries).toBe(slow.queries);
          if (slow.queries > 0) expect(fast.error).toBeCloseTo(slow.error, 9);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is zero for an exact release of every record', () => {
    const table = tableFromRows(['g', 'h'], Array.from({ length: 200 }, (_, i) => [['a', 'b'][i % 2]!, ['x', 'y', 'z'][i % 3]!]));
    const generalized = table.columns.map((c) => generalizeColumn(c, undefined, 0));
    const all = Uint32Array.from({ length: 200 }, (_, i) => i);
    const result = generalizedQueryError(new SeededTestRandomSource(1), table.columns, generalized, all, 1, { size: 50, maxAttempts: 500 });
    expect(result.queries).toBe(50);
    expect(result.error).toBe(0);
  });
});
