import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerByRows, answerQueries, offerMicroGroups, type CountColumn, type CountQuery } from '../query-pool.js';
import { buildTupleLattice } from '../tuple-lattice.js';
import { uniformInt } from '../../random/draws.js';
import { SeededTestRandomSource } from '../../random/source.js';
import { groupRows } from '../../table/micro-groups.js';
import { groupValueCounts } from '../../randomized-response/group-counts.js';
import { tableFromRows } from '../../table/table.js';

type Query = Pick<CountQuery, 'attributes' | 'values' | 'sensitiveValue'>;

/** The definition, row by row: rows[i] is the input row that row i shows, sensitive[i] its value. */
function brute(columns: readonly CountColumn[], rows: ArrayLike<number>, sensitive: Uint32Array, q: Query): { count: number; marginal: number } {
  let count = 0;
  let marginal = 0;
  for (let i = 0; i < sensitive.length; i++) {
    const r = rows[i]!;
    if (!q.attributes.every((a, j) => columns[a]!.codes[r] === q.values[j])) continue;
    marginal++;
    if (sensitive[i] === q.sensitiveValue) count++;
  }
  return { count, marginal };
}

/** Every query's answer in `got` is what counting the rows one by one gives. */
function expectCounted(got: { count: Uint32Array; marginal: Uint32Array }, columns: readonly CountColumn[], rows: ArrayLike<number>, sensitive: Uint32Array, queries: readonly Query[]): void {
  queries.forEach((q, i) => expect({ count: got.count[i], marginal: got.marginal[i] }).toEqual(brute(columns, rows, sensitive, q)));
}

/**
 * Tables whose tuples repeat the way a census's do: a few wide columns (some
 * independent of the rest, as a region is), narrow columns derived in part
 * from others, so leaving a column out merges many tuples and the lattice has
 * children, grandchildren and a wide base.
 */
const tableArb = fc
  .record({
    rows: fc.integer({ min: 1, max: 400 }),
    widths: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
    derived: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    m: fc.integer({ min: 1, max: 12 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 }),
  })
  .map(({ rows, widths, derived, m, seed }) => {
    const source = new SeededTestRandomSource(seed);
    const body = Array.from({ length: rows }, () => {
      const row: number[] = [];
      widths.forEach((w, j) => row.push(j > 0 && derived[j] ? (row[j - 1]! * 7 + uniformInt(source, 2)) % w : uniformInt(source, w)));
      return row.map((v) => `v${v}`);
    });
    const table = tableFromRows(widths.map((_, j) => `c${j}`), body);
    // The sensitive value follows the first column a little, as occupation follows education.
    const sensitive = Uint32Array.from({ length: rows }, (_, r) => (uniformInt(source, 3) === 0 ? table.columns[0]!.codes[r]! % m : uniformInt(source, m)));
    return { columns: table.columns as readonly CountColumn[], sensitive, m };
  });

function randomQueries(source: SeededTestRandomSource, columns: readonly CountColumn[], m: number, count: number): Query[] {
  return Array.from({ length: count }, () => {
    const d = 1 + uniformInt(source, Math.min(3, columns.length));
    const pool = columns.map((_, j) => j);
    const attributes: number[] = [];
    for (let j = 0; j < d; j++) attributes.push(pool.splice(uniformInt(source, pool.length), 1)[0]!);
    attributes.sort((a, b) => a - b);
    // Mostly values that occur (as a drawn pool's are), sometimes any code of the dictionary.
    const r = uniformInt(source, columns[0]!.codes.length);
    const values = attributes.map((a) => (uniformInt(source, 4) === 0 ? uniformInt(source, columns[a]!.dictionary.length) : columns[a]!.codes[r]!));
    return { attributes, values, sensitiveValue: uniformInt(source, m) };
  });
}

describe('counting over the tuple lattice', () => {
  it('answers every query as counting the rows one by one, on the input and on a release of row references', () => {
    fc.assert(
      fc.property(tableArb, fc.integer({ min: 0, max: 2 ** 31 }), ({ columns, sensitive, m }, seed) => {
        const source = new SeededTestRandomSource(seed);
        const n = sensitive.length;
        const queries = randomQueries(source, columns, m, 60);
        const identity = Uint32Array.from({ length: n }, (_, i) => i);
        const direct = answerQueries(columns, null, sensitive, m, queries);
        const sourceRow = Uint32Array.from({ length: n + uniformInt(source, 9) }, () => uniformInt(source, n));
        const released = Uint32Array.from({ length: sourceRow.length }, () => uniformInt(source, m));
        const viaRows = answerQueries(columns, sourceRow, released, m, queries);
        // The rows' own path (shapes too wide for the lattice, bases too large to weigh) answers the same.
        const byRows = answerByRows(columns, sourceRow, released, m, queries);
        expectCounted(direct, columns, identity, sensitive, queries);
        expectCounted(viaRows, columns, sourceRow, released, queries);
        expectCounted(byRows, columns, sourceRow, released, queries);
      }),
      { numRuns: 80 },
    );
  });

  it('with a threshold, answers exactly every query that reaches it (pruning by pairs drops only queries below it)', () => {
    fc.assert(
      fc.property(tableArb, fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 30 }), ({ columns, sensitive, m }, seed, need) => {
        const queries = randomQueries(new SeededTestRandomSource(seed), columns, m, 60);
        const identity = Uint32Array.from({ length: sensitive.length }, (_, i) => i);
        const { count } = answerQueries(columns, null, sensitive, m, queries, need);
        queries.forEach((q, i) => {
          const truth = brute(columns, identity, sensitive, q).count;
          if (truth >= need) expect(count[i]).toBe(truth);
          else expect(count[i]).toBeLessThan(need);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('gives the same answers from a lattice on the caller\'s micro groups', () => {
    fc.assert(
      fc.property(tableArb, fc.integer({ min: 0, max: 2 ** 31 }), ({ columns, sensitive, m }, seed) => {
        const queries = randomQueries(new SeededTestRandomSource(seed), columns, m, 40);
        const expected = answerQueries([...columns], null, sensitive, m, queries);
        const offered = [...columns];
        offerMicroGroups(offered, groupRows(columns as never, sensitive.length));
        expect(answerQueries(offered, null, sensitive, m, queries)).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('answers from the micro groups\u2019 value counts for their own sensitive column only, and from rows handed in group order', () => {
    fc.assert(
      fc.property(tableArb, fc.integer({ min: 0, max: 2 ** 31 }), ({ columns, sensitive, m }, seed) => {
        const source = new SeededTestRandomSource(seed);
        const n = sensitive.length;
        const queries = randomQueries(source, columns, m, 40);
        const identity = Uint32Array.from({ length: n }, (_, i) => i);
        const offered = [...columns];
        const grouping = groupRows(columns as never, n);
        offerMicroGroups(offered, { ...grouping, valueCounts: { sensitive, ...groupValueCounts(grouping, sensitive, m) } });
        const check = (sourceRow: Uint32Array | null, values: Uint32Array): void => expectCounted(answerQueries(offered, sourceRow, values, m, queries), columns, sourceRow ?? identity, values, queries);
        check(null, sensitive);
        // Another sensitive column over the same rows is summed, not read from the counts.
        check(null, Uint32Array.from(sensitive, (x) => (x + 1) % m));
        // A release in group order (as handed over before its shuffle), then the same with one row out of order at its end.
        const inOrder = Uint32Array.from(grouping.rowsByGroup);
        check(inOrder, Uint32Array.from(inOrder, () => uniformInt(source, m)));
        const late = Uint32Array.from([...inOrder, inOrder[0]!]);
        check(late, Uint32Array.from(late, () => uniformInt(source, m)));
      }),
      { numRuns: 60 },
    );
  });

  it('builds narrower tables where leaving a column out merges tuples, each group mapped onto its parent\'s', () => {
    // A wide column independent of three narrow ones: without it, 10,000 rows fall into at most 12 tuples.
    const source = new SeededTestRandomSource(5);
    const body = Array.from({ length: 10_000 }, () => [`r${uniformInt(source, 200)}`, `a${uniformInt(source, 2)}`, `b${uniformInt(source, 3)}`, `c${uniformInt(source, 2)}`]);
    const { columns } = tableFromRows(['region', 'a', 'b', 'c'], body);
    const lattice = buildTupleLattice(columns, 10_000);
    const narrow = lattice.nodes.find((node) => node.attributes.join() === '1,2,3');
    expect(narrow?.groupCount).toBeLessThanOrEqual(12);
    for (const node of lattice.nodes.slice(1)) {
      const parent = lattice.nodes[node.parent]!;
      // Each parent group keeps its codes on the attributes the child keeps.
      for (let g = 0; g < parent.groupCount; g++) {
        node.attributes.forEach((a, j) => expect(node.codes[j]![node.groupOfParent![g]!]).toBe(parent.codes[parent.attributes.indexOf(a)]![g]));
      }
    }
    // The sums cover more cells than one bucket (200 · 12 groups × 40 values), so the rows are split by key range first.
    const sensitive = Uint32Array.from({ length: 10_000 }, () => uniformInt(source, 40));
    const queries = randomQueries(source, columns, 40, 300);
    const identity = Uint32Array.from({ length: 10_000 }, (_, i) => i);
    const { count, marginal } = answerQueries(columns, null, sensitive, 40, queries);
    queries.forEach((q, i) => expect({ count: count[i], marginal: marginal[i] }).toEqual(brute(columns, identity, sensitive, q)));
  });

  it('answers as the rows do when a node\'s keys overflow a double and when its children are chosen on a sample', () => {
    // 26,000 rows over 12 columns: 5,000 · 3³ · 30⁸ tuples exceed 2^52 (the keys are renumbered column by
    // column), and the base's 20,000-odd groups are more than are scored in full (a sample ranks its children).
    const source = new SeededTestRandomSource(11);
    const rows = 26_000;
    const names = Array.from({ length: 12 }, (_, j) => `c${j}`);
    const body = Array.from({ length: rows }, () => {
      const narrow = uniformInt(source, 3);
      const shared = uniformInt(source, 30);
      // Columns that move together: without the wide column the rows fall into at most 90 tuples.
      return names.map((_, j) => (j === 0 ? `w${uniformInt(source, 5000)}` : j < 4 ? `n${(narrow + j) % 3}` : `v${(shared + j) % 30}`));
    });
    const { columns } = tableFromRows(names, body);
    const lattice = buildTupleLattice(columns, rows);
    expect(lattice.nodes[0]!.groupCount).toBeGreaterThan(20_000);
    expect(columns.reduce((product, c) => product * c.dictionary.length, 1)).toBeGreaterThan(2 ** 52);
    expect(lattice.nodes.length).toBeGreaterThan(1);
    const sensitive = Uint32Array.from({ length: rows }, () => uniformInt(source, 5));
    const queries = randomQueries(source, columns, 5, 200);
    const identity = Uint32Array.from({ length: rows }, (_, i) => i);
    const { count, marginal } = answerQueries(columns, null, sensitive, 5, queries);
    queries.forEach((q, i) => expect({ count: count[i], marginal: marginal[i] }).toEqual(brute(columns, identity, sensitive, q)));
  });
});
