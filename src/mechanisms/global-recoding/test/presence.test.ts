/**
 * δ-presence with a research subset (issue 36), as ARX's DPresence: the input is the population, the
 * subset's records are released, every class of the release holds between δmin and δmax of the
 * population's records with its generalized quasi-identifiers. The search is compared with a plain
 * brute force written here from that definition (classes as Maps of joined values, the bounds in
 * integers), over every transformation of small random tables.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latticeNodesOf } from '../../../common/recoding/lattice.js';
import { tableHierarchy } from '../../../common/recoding/hierarchy.js';
import { tableFromRows } from '../../../common/table/table.js';
import { quasiColumn } from '../../../common/recoding/search/recoding-input.js';
import type { PrivacyModel } from '../../../common/recoding/search/models.js';
import { better, optimalRecoding, type NodeResult, type SearchInput, type SearchOptions } from '../../../common/recoding/search/search.js';
import { caseArbWith, type Case } from './random-cases.js';
import { refClasses, refMeasure, type RefClass, type RefInput } from './reference.js';

const SEED = 20261128;

/** The tests' thresholds as integers num/den (two decimals at most). */
const fraction = (x: number): [number, number] => [Math.round(x * 100), 100];

interface PresenceCase extends Case {
  readonly subset: readonly boolean[];
  readonly presence: { readonly type: 'delta-presence'; readonly deltaMin: number; readonly deltaMax: number };
}

/** Does a class of `inSubset` of its `all` records meet the job's other model (on the subset's count, as ARX) and δ-presence? */
function refMeetsWithSubset(model: PrivacyModel, inSubset: number, all: number): boolean {
  switch (model.type) {
    case 'k-anonymity':
      return inSubset >= model.k;
    case 'maximum-risk':
      return 1 / inSubset <= model.risk;
    case 'delta-presence': {
      const [lowNum, lowDen] = fraction(model.deltaMin);
      const [highNum, highDen] = fraction(model.deltaMax);
      return inSubset * lowDen >= lowNum * all && inSubset * highDen <= highNum * all;
    }
    default:
      throw new Error(`${model.type} is not drawn here`);
  }
}

/**
 * One transformation judged from the definition: population classes over every record; a class of
 * no subset record fails the whole node when δmin > 0 and is otherwise no class of the release; a
 * class failing a model has its subset records suppressed. The measure is the reference's over the
 * subset's records alone (the release), with the population's suppression decisions.
 */
function refNode(c: PresenceCase, node: readonly number[]): { satisfies: boolean; suppressed: number; measure: number; released: { inSubset: number; all: number }[] } {
  const all = refClasses(c.ref, node);
  let absentFails = false;
  let suppressed = 0;
  const failing = new Set<string>();
  const released: { inSubset: number; all: number }[] = [];
  for (const cls of all) {
    const inSubset = cls.records.filter((r) => c.subset[r]).length;
    if (inSubset === 0) {
      if (c.presence.deltaMin > 0) absentFails = true;
      continue;
    }
    if (c.input.models.some((m) => !refMeetsWithSubset(m, inSubset, cls.records.length))) {
      failing.add(cls.key);
      suppressed += inSubset;
    } else released.push({ inSubset, all: cls.records.length });
  }
  const rows = c.subset.flatMap((inside, r) => (inside ? [r] : []));
  const restricted: RefInput = { ...c.ref, columns: c.ref.columns.map((col) => ({ ...col, values: col.values.map((level) => rows.map((r) => level[r]!)) })), sensitive: rows.map((r) => c.ref.sensitive[r]!) };
  const classes: RefClass[] = refClasses(restricted, node);
  for (const cls of classes) cls.suppressed = failing.has(cls.key);
  const limit = Math.floor(c.input.suppressionLimit * rows.length);
  return { satisfies: !absentFails && suppressed <= limit, suppressed, measure: refMeasure(restricted, node, classes), released };
}

function refOptimum(c: PresenceCase): { best: NodeResult | undefined; satisfying: number } {
  let best: NodeResult | undefined;
  let satisfying = 0;
  for (const node of latticeNodesOf(c.input.columns.map((col) => col.depth))) {
    const judged = refNode(c, node);
    if (!judged.satisfies) continue;
    satisfying++;
    const result = { node, measure: judged.measure, suppressedRecords: judged.suppressed };
    if (better(result, best)) best = result;
  }
  return { best, satisfying };
}

const otherModel: fc.Arbitrary<PrivacyModel> = fc.oneof(
  fc.record({ type: fc.constant('k-anonymity' as const), k: fc.integer({ min: 2, max: 4 }) }),
  fc.record({ type: fc.constant('maximum-risk' as const), risk: fc.constantFrom(0.34, 0.5) }),
);

const presenceCaseArb: fc.Arbitrary<PresenceCase> = caseArbWith(otherModel).chain((c) =>
  fc
    .record({
      subset: fc.array(fc.boolean(), { minLength: c.input.rowCount, maxLength: c.input.rowCount }),
      deltaMin: fc.constantFrom(0, 0, 0.1, 0.25, 0.4),
      deltaMax: fc.constantFrom(0.5, 0.6, 0.75, 1),
      alone: fc.boolean(),
    })
    // A subset of at least one record (a run refuses an empty one: there is nothing to release).
    .map(({ subset: drawn, deltaMin, deltaMax, alone }) => {
      const subset = drawn.some(Boolean) ? drawn : drawn.map((_, r) => r === 0);
      const presence = { type: 'delta-presence' as const, deltaMin, deltaMax };
      const models: PrivacyModel[] = alone ? [presence] : [...c.input.models.slice(0, 1), presence];
      const mask = Uint8Array.from(subset, (inside) => (inside ? 1 : 0));
      const { sensitive: _unused, ...rest } = c.input;
      const input: SearchInput = { ...rest, models, subset: mask, measure: c.input.measure === 'entropy' ? 'loss' : c.input.measure };
      return { input, ref: { ...c.ref, models, measure: input.measure }, subset, presence };
    }),
);

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

describe('δ-presence with a research subset', () => {
  it('the search finds the brute force\'s optimum over every transformation, pruned or not, bottom-up or top-down (property)', () => {
    fc.assert(
      fc.property(presenceCaseArb, (c) => {
        const { best: expected, satisfying } = refOptimum(c);
        const strategies: SearchOptions[] = [{ prune: true, strategy: 'bottom-up' }, { prune: false }, { prune: true, packed: false, strategy: 'bottom-up' }, { prune: true }];
        const subsetSize = c.subset.filter(Boolean).length;
        // Monotone with generalization only: the top-down search (which takes a failing generalization as proof
        // that a node fails) is sound with nothing to suppress, and refused otherwise.
        if (Math.floor(c.input.suppressionLimit * subsetSize) === 0) strategies.push({ prune: true, strategy: 'top-down' }, { prune: true, packed: false, strategy: 'top-down' });
        else expect(() => optimalRecoding(c.input, { strategy: 'top-down' })).toThrow(RangeError);
        for (const options of strategies) {
          const result = optimalRecoding(c.input, options);
          // A pruned subtree is counted as satisfying only for models monotone with suppression: δ-presence is not.
          if (result.satisfyingExact) expect(result.satisfying).toBe(satisfying);
          else expect(result.satisfying).toBeLessThanOrEqual(satisfying);
          const found = result.optimum;
          expect(found === undefined, JSON.stringify(options)).toBe(expected === undefined);
          if (!expected) continue;
          expect(found!.node, JSON.stringify(options)).toEqual(expected.node);
          expect(close(found!.measure, expected.measure)).toBe(true);
          expect(found!.suppressedRecords).toBe(expected.suppressedRecords);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('every class the optimum releases holds between δmin and δmax of its population records (property)', () => {
    let checked = 0;
    fc.assert(
      fc.property(presenceCaseArb, (c) => {
        const found = optimalRecoding(c.input).optimum;
        if (!found) return;
        const [lowNum, lowDen] = fraction(c.presence.deltaMin);
        const [highNum, highDen] = fraction(c.presence.deltaMax);
        for (const cls of refNode(c, found.node).released) {
          checked++;
          expect(cls.inSubset * lowDen).toBeGreaterThanOrEqual(lowNum * cls.all);
          expect(cls.inSubset * highDen).toBeLessThanOrEqual(highNum * cls.all);
        }
      }),
      { seed: SEED + 1, numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(100);
  });

  it('is not monotone with suppression: a node that meets it by suppressing a class has a generalization that does not', () => {
    // q: a, b generalize to *. Class a: 2 of 4 in the subset (δ ½); class b: 1 of 1 (δ 1, suppressed). Merged: 3 of 5 (δ 0.6 > ½).
    const rows = [['a', '1'], ['a', '1'], ['a', '0'], ['a', '0'], ['b', '1']];
    const table = tableFromRows(['q', 'in'], rows, []);
    const column = quasiColumn(table.columns[0]!, tableHierarchy([['a', '*'], ['b', '*']]));
    const subset = Uint8Array.from(rows, ([, inside]) => Number(inside));
    const input: SearchInput = { columns: [column], rowCount: rows.length, models: [{ type: 'delta-presence', deltaMin: 0, deltaMax: 0.5 }], suppressionLimit: 1 / 3, measure: 'loss', subset };
    const bottomOnly = optimalRecoding({ ...input, bounds: [{ min: 0, max: 0 }] });
    const topOnly = optimalRecoding({ ...input, bounds: [{ min: 1, max: 1 }] });
    expect(bottomOnly.optimum?.suppressedRecords).toBe(1);
    expect(topOnly.optimum).toBeUndefined();
    // And the whole lattice's optimum is the lower node, found although the node above it fails.
    expect(optimalRecoding(input).optimum?.node).toEqual([0]);
  });

  it('a class with no subset record fails the transformation when δmin > 0 (it cannot be suppressed), and passes when δmin = 0', () => {
    const rows = [['a', '1'], ['a', '0'], ['b', '0'], ['b', '0']];
    const table = tableFromRows(['q', 'in'], rows, []);
    const column = quasiColumn(table.columns[0]!, tableHierarchy([['a', '*'], ['b', '*']]));
    const subset = Uint8Array.from(rows, ([, inside]) => Number(inside));
    const input = (deltaMin: number, suppressionLimit = 1): SearchInput => ({ columns: [column], rowCount: rows.length, models: [{ type: 'delta-presence', deltaMin, deltaMax: 0.5 }], suppressionLimit, measure: 'loss', subset });
    expect(optimalRecoding(input(0)).optimum?.node).toEqual([0]);
    // δmin = ¼: class b (0 of 2) fails at level 0 whatever is suppressed; at level 1, 1 of 4 meets it.
    expect(optimalRecoding(input(0.25)).optimum?.node).toEqual([1]);
    // δmin = 0.3: level 1's class (¼) fails too; its subset record can be suppressed (the release is then empty), but not with a limit of 0.
    expect(optimalRecoding(input(0.3)).optimum).toEqual({ node: [1], measure: 1, suppressedRecords: 1 });
    expect(optimalRecoding(input(0.3, 0)).optimum).toBeUndefined();
  });
});
