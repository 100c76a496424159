import fc from 'fast-check';
import { tableHierarchy, type Hierarchy } from '../../../common/recoding/hierarchy.js';
import { tableFromRows } from '../../../common/table/table.js';
import { MEASURES } from '../../../common/recoding/search/measures.js';
import type { PrivacyModel } from '../../../common/recoding/search/models.js';
import { quasiColumn, sensitiveColumn } from '../../../common/recoding/search/recoding-input.js';
import type { SearchInput } from '../../../common/recoding/search/search.js';
import type { RefInput } from './reference.js';

/** Random small tables with random hierarchies, models, limits and measures, with the same table in the reference's form. */
/** A random nested hierarchy over `values` values: each level merges the groups of the one below, the last is "*". */
export const hierarchyArb = (values: number) =>
  fc.integer({ min: 1, max: 4 }).chain((depth) =>
    fc.array(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: values, maxLength: values }), { minLength: Math.max(0, depth - 2), maxLength: Math.max(0, depth - 2) }).map((merges) => {
      if (depth === 1) return undefined;
      const rows = Array.from({ length: values }, (_, v) => [`v${v}`]);
      let group = Array.from({ length: values }, (_, v) => v);
      merges.forEach((choice, l) => {
        // A group's parent is chosen from its members' draws (the smallest member decides), so levels nest.
        const parentOf = new Map<number, number>();
        group.forEach((g, v) => {
          if (!parentOf.has(g)) parentOf.set(g, choice[v]!);
        });
        group = group.map((g) => parentOf.get(g)!);
        rows.forEach((row, v) => row.push(`L${l + 1}g${group[v]}`));
      });
      rows.forEach((row) => row.push('*'));
      return rows;
    }),
  );

export const modelArb: fc.Arbitrary<PrivacyModel> = fc.oneof(
  fc.record({ type: fc.constant('k-anonymity' as const), k: fc.integer({ min: 2, max: 5 }) }),
  fc.record({ type: fc.constant('distinct-l-diversity' as const), l: fc.integer({ min: 2, max: 3 }) }),
  fc.record({ type: fc.constant('entropy-l-diversity' as const), l: fc.integer({ min: 2, max: 3 }) }),
  fc.record({ type: fc.constant('recursive-cl-diversity' as const), c: fc.constantFrom(1, 2, 3.5), l: fc.integer({ min: 2, max: 3 }) }),
  fc.record({ type: fc.constant('t-closeness' as const), t: fc.constantFrom(0.1, 0.2, 0.35, 0.5), distance: fc.constantFrom('equal' as const, 'ordered' as const) }),
  fc.record({ type: fc.constant('maximum-risk' as const), risk: fc.constantFrom(0.2, 0.34, 0.5) }),
  fc.record({ type: fc.constant('average-risk' as const), risk: fc.constantFrom(0.1, 0.25, 0.5) }),
  // Rescaled thresholds r / π (what were journalist thresholds on π / |class|): drawn as before, so the
  // seeded properties meet the same cases; the engine now holds every threshold on 1 / |class|.
  fc.record({ type: fc.constant('maximum-risk' as const), risk: fc.constantFrom(0.02, 0.05, 0.1), fraction: fc.constantFrom(0.1, 0.25, 0.5) }).map(({ type, risk, fraction }) => ({ type, risk: risk / fraction })),
  fc.record({ type: fc.constant('average-risk' as const), risk: fc.constantFrom(0.02, 0.05, 0.1), fraction: fc.constantFrom(0.1, 0.25, 0.5) }).map(({ type, risk, fraction }) => ({ type, risk: risk / fraction })),
);

export interface Case {
  readonly input: SearchInput;
  readonly ref: RefInput;
}

/** Cases whose models are drawn from `models` (caseArb: every model but β-likeness and δ-disclosure, whose cases stay as they were drawn before). */
export const caseArbWith = (models: fc.Arbitrary<PrivacyModel>): fc.Arbitrary<Case> => fc
  .record({
    widths: fc.array(fc.integer({ min: 2, max: 5 }), { minLength: 1, maxLength: 3 }),
    sensitiveValues: fc.integer({ min: 2, max: 4 }),
    rows: fc.integer({ min: 1, max: 60 }),
    models: fc.array(models, { minLength: 1, maxLength: 2 }),
    limit: fc.constantFrom(0, 0.05, 0.1, 0.3, 1),
    measure: fc.constantFrom(...MEASURES),
    /** Column 1 with column 0's hierarchy (its own values): Loss ties exactly across the two, which the tie order must settle as the brute force does. */
    twin: fc.boolean(),
  })
  .chain((p) =>
    fc.record({
      p: fc.constant(p),
      hierarchies: fc.tuple(...p.widths.map((w) => hierarchyArb(w))),
      records: fc.array(fc.tuple(fc.tuple(...p.widths.map((w) => fc.integer({ min: 0, max: w - 1 }))), fc.integer({ min: 0, max: p.sensitiveValues - 1 })), { minLength: p.rows, maxLength: p.rows }),
    }),
  )
  .map(({ p, hierarchies: drawn, records: raw }) => {
    const twinned = p.twin && p.widths.length >= 2;
    const hierarchies = twinned ? drawn.map((h, j) => (j === 1 ? drawn[0] : h)) : drawn;
    const records = twinned ? raw.map(([q, s]): [number[], number] => [q.map((v, j) => (j === 1 ? v % p.widths[0]! : v)), s]) : raw;
    const header = [...p.widths.map((_, j) => `q${j}`), 's'];
    // Numeric sensitive values so the ordered distance sorts them as numbers (10 after 9).
    const table = tableFromRows(header, records.map(([q, s]) => [...q.map((v) => `v${v}`), String(s * 5)]), []);
    const built: (Hierarchy | undefined)[] = hierarchies.map((rows) => (rows ? tableHierarchy(rows) : undefined));
    const columns = p.widths.map((_, j) => quasiColumn(table.columns[j]!, built[j]));
    const sensitive = sensitiveColumn(table.columns[p.widths.length]!);
    const input: SearchInput = { columns, sensitive, rowCount: table.rowCount, models: p.models, suppressionLimit: p.limit, measure: p.measure };
    const ref: RefInput = {
      columns: p.widths.map((_w, j) => {
        const h = built[j];
        const original = records.map(([q]) => `v${q[j]}`);
        const depth = h ? h.depth : 1;
        return {
          values: Array.from({ length: depth }, (_, l) => original.map((v) => (l === 0 ? v : h!.generalize(v, l)!))),
          share: (value: string, level: number) => (h ? (level === 0 ? 1 : h.coverage(value, level)) / h.leaves! : 1 / table.columns[j]!.distinct),
          domainSize: h ? h.leaves! : table.columns[j]!.distinct,
        };
      }),
      sensitive: records.map(([, s]) => String(s * 5)),
      order: Array.from({ length: p.sensitiveValues }, (_, s) => String(s * 5)),
      models: p.models,
      limit: p.limit,
      measure: p.measure,
    };
    return { input, ref };
  });

export const caseArb: fc.Arbitrary<Case> = caseArbWith(modelArb);
