import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latticeNodesOf } from '../../../common/recoding/lattice.js';
import type { PrivacyModel } from '../../../common/recoding/search/models.js';
import { sensitiveColumn } from '../../../common/recoding/search/recoding-input.js';
import { better, bruteForceRecoding, optimalRecoding, type NodeResult, type SearchInput } from '../../../common/recoding/search/search.js';
import { tableFromRows } from '../../../common/table/table.js';
import { caseArbWith, type Case } from './random-cases.js';
import { refClasses, refMeasure, refMeets, type RefInput } from './reference.js';

/** Models of a sensitive value, each on sensitive column 0 or 1 (attribute), with k-anonymity among them. */
const onAttribute: fc.Arbitrary<PrivacyModel> = fc
  .tuple(
    fc.oneof(
      fc.record({ type: fc.constant('distinct-l-diversity' as const), l: fc.integer({ min: 2, max: 3 }) }),
      fc.record({ type: fc.constant('entropy-l-diversity' as const), l: fc.integer({ min: 2, max: 3 }) }),
      fc.record({ type: fc.constant('recursive-cl-diversity' as const), c: fc.constantFrom(1, 2, 3.5), l: fc.integer({ min: 2, max: 3 }) }),
      fc.record({ type: fc.constant('t-closeness' as const), t: fc.constantFrom(0.1, 0.2, 0.35, 0.5), distance: fc.constantFrom('equal' as const, 'ordered' as const) }),
      fc.record({ type: fc.constant('beta-likeness' as const), beta: fc.constantFrom(0.5, 1, 2), variant: fc.constantFrom('basic' as const, 'enhanced' as const) }),
      fc.record({ type: fc.constant('delta-disclosure' as const), delta: fc.constantFrom(0.5, 1, 2) }),
    ),
    fc.constantFrom(0, 1),
  )
  .map(([model, attribute]) => (attribute === 0 ? model : { ...model, attribute }));
const modelArb: fc.Arbitrary<PrivacyModel> = fc.oneof({ arbitrary: onAttribute, weight: 4 }, { arbitrary: fc.record({ type: fc.constant('k-anonymity' as const), k: fc.integer({ min: 2, max: 4 }) }), weight: 1 });

interface TwoCase {
  readonly c: Case;
  readonly input: SearchInput;
  /** The second sensitive column's values per record, as the reference reads them. */
  readonly second: readonly string[];
}

/** A random case (its sensitive column is attribute 0) with a second sensitive column of 1–4 values drawn per record. */
const twoArb: fc.Arbitrary<TwoCase> = caseArbWith(fc.oneof(modelArb, modelArb))
  .chain((c) => fc.record({ c: fc.constant(c), codes: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: c.input.rowCount, maxLength: c.input.rowCount }), models: fc.array(modelArb, { minLength: 1, maxLength: 3 }) }))
  .map(({ c, codes, models }) => {
    const second = codes.map((v) => String(v * 7));
    const table = tableFromRows(['t'], second.map((v) => [v]), []);
    const input: SearchInput = { ...c.input, models, moreSensitive: [sensitiveColumn(table.columns[0]!)] };
    return { c: { input, ref: { ...c.ref, models } }, input, second };
  });

/** The reference on one sensitive column: the model's own column and its value order. */
function refOn(ref: RefInput, second: readonly string[], model: PrivacyModel): RefInput {
  const attribute = 'attribute' in model ? model.attribute : undefined;
  return attribute === 1 ? { ...ref, sensitive: second, order: [...new Set(second)].sort((a, b) => Number(a) - Number(b)) } : ref;
}

/** Brute force from the definition: a class is released iff it meets every model on that model's column. */
function referenceOptimum(t: TwoCase): { best: NodeResult | undefined; satisfying: number; suppressed: Map<string, number> } {
  const { ref } = t.c;
  let best: NodeResult | undefined;
  let satisfying = 0;
  const suppressedByNode = new Map<string, number>();
  for (const node of latticeNodesOf(t.input.columns.map((col) => col.depth))) {
    const classes = refClasses(ref, node);
    let suppressed = 0;
    for (const cls of classes) {
      cls.suppressed = ref.models.some((m) => !refMeets(m, refOn(ref, t.second, m), cls.records));
      if (cls.suppressed) suppressed += cls.records.length;
    }
    suppressedByNode.set(node.join(','), suppressed);
    if (suppressed > Math.floor(ref.limit * t.input.rowCount)) continue;
    satisfying++;
    const result = { node, measure: refMeasure(ref, node, classes), suppressedRecords: suppressed };
    if (better(result, best)) best = result;
  }
  return { best, satisfying, suppressed: suppressedByNode };
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

describe('several sensitive columns, each model on its own (ARX: one attribute per model)', () => {
  it('every node\'s suppression and the optimum equal a brute force that checks each model on its own column (property)', () => {
    fc.assert(
      fc.property(twoArb, (t) => {
        const ref = referenceOptimum(t);
        const brute = bruteForceRecoding(t.input);
        for (const r of brute.all) expect(r.suppressedRecords).toBe(ref.suppressed.get(r.node.join(',')));
        expect(brute.satisfying).toBe(ref.satisfying);
        expect(brute.optimum === undefined).toBe(ref.best === undefined);
        if (ref.best) expect(close(brute.optimum!.measure, ref.best.measure)).toBe(true);
        for (const options of [{}, { prune: true, strategy: 'bottom-up' as const }, { prune: true, packed: false, strategy: 'bottom-up' as const }]) {
          const found = optimalRecoding(t.input, options);
          expect(found.optimum?.node).toEqual(brute.optimum?.node);
          expect(found.optimum?.suppressedRecords).toBe(brute.optimum?.suppressedRecords);
        }
      }),
      { seed: 20261130, numRuns: 300 },
    );
  });

  it('a model on attribute 1 reads the second column, not the first: a table where only the second is diverse', () => {
    const rows = ['a', 'a', 'b', 'b'].map((q, i) => [q, 'same', String(i % 2)]);
    const table = tableFromRows(['q', 's', 't'], rows, []);
    const first = sensitiveColumn(table.columns[1]!);
    const second = sensitiveColumn(table.columns[2]!);
    const columns = [{ name: 'q', codes: table.columns[0]!.codes, depth: 1, cardinality: [3], up: [], lift: [Uint32Array.from([0, 1, 2])], share: [Float64Array.from([1 / 2, 1 / 2, 1 / 2])], domainSize: 2, labels: [['', 'a', 'b']] }];
    const base = { columns, rowCount: 4, suppressionLimit: 0, measure: 'loss' as const, sensitive: first, moreSensitive: [second] };
    expect(optimalRecoding({ ...base, models: [{ type: 'distinct-l-diversity', l: 2, attribute: 1 }] }).optimum).toBeDefined();
    expect(optimalRecoding({ ...base, models: [{ type: 'distinct-l-diversity', l: 2 }] }).optimum).toBeUndefined();
  });
});
