import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource, type RandomSource } from '../../random/source.js';
import { rationalFromNumber } from '../../exact/rational.js';
import { groupingOf, type Grouping } from '../../table/micro-groups.js';
import { releaseGroup } from '../algorithm1.js';
import { maxEpsilon, sizeThreshold, type PrivacyParameters } from '../bounds.js';
import { forEachGroupCounts } from '../group-counts.js';
import { UniformPerturber } from '../perturbation/randomize.js';
import { reconstructionRelease } from '../release.js';
import { shuffleRelease } from '../../table/release-rows.js';


/**
 * Algorithm 1 group by group through releaseGroup, as the release was made before it took the
 * groups nobody samples (most of a census) without releaseGroup's arrays: the same draws in the same
 * order must give the same release, trials and figures.
 */
function referenceRelease(source: RandomSource, grouping: Grouping, values: Uint32Array, params: PrivacyParameters, p: number, strict: boolean) {
  const perturber = new UniformPerturber(rationalFromNumber(p), params.m);
  const sourceRow: number[] = [];
  const sensitive: number[] = [];
  const trials: number[] = [];
  const trialMax: number[] = [];
  const stats = { sampledGroups: 0, suppressedGroups: 0, suppressedRows: 0, trimmedRows: 0, trials: 0, violatingAfter: 0, violatingRowsAfter: 0 };
  forEachGroupCounts(grouping, values, params.m, (g, counts, firstRow) => {
    const size = counts.counts.reduce((a, b) => a + b, 0);
    if (params.epsilon > maxEpsilon(Math.max(...counts.counts) / size, params.p, params.m)) throw new RangeError('outside');
    const r = releaseGroup(source, counts, params, perturber, { strict });
    trials[g] = r.trials;
    trialMax[g] = r.trialMaxCount;
    if (r.sampled) stats.sampledGroups++;
    if (r.trials === 0) {
      stats.suppressedGroups++;
      stats.suppressedRows += size;
    }
    stats.trimmedRows += r.trimmed;
    stats.trials += r.trials;
    if (r.trials > 0 && !(r.trials <= sizeThreshold(r.trialMaxCount / r.trials, params))) {
      stats.violatingAfter++;
      stats.violatingRowsAfter += size;
    }
    for (let t = 0; t < r.trials; t++) {
      const copies = r.copies === null ? 1 : r.copies[t]!;
      for (let c = 0; c < copies; c++) {
        sourceRow.push(firstRow);
        sensitive.push(r.trialValues[t]!);
      }
    }
  });
  const rows = { sourceRow: Uint32Array.from(sourceRow), sensitive: [Uint32Array.from(sensitive)] };
  shuffleRelease(source, rows);
  return { rows, trials, trialMax, stats };
}

describe('reconstructionRelease', () => {
  it('makes exactly the release of Algorithm 1 applied group by group, same seed (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 2, max: 8 }),
        // Group sizes up to 120: groups past s_g are sampled, small ones are not, some cannot be protected.
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 120 }),
        fc.constantFrom(0.3, 0.5, 0.8),
        fc.constantFrom(0.2, 0.5),
        fc.boolean(),
        fc.integer({ min: 1, max: 1000 }),
        (groupCount, m, spec, p, epsilon, strict, seed) => {
          // Each spec entry adds `copies` rows to a group: some groups grow large, most stay small.
          const groupOf: number[] = [];
          const valueOf: number[] = [];
          for (const [g, v, copies] of spec) for (let c = 0; c < copies * (g % 5 === 0 ? 12 : 1); c++) {
            groupOf.push(g % groupCount);
            valueOf.push(g % 7 === 0 ? 0 : (v + c) % m);
          }
          const used = [...new Set(groupOf)].sort((a, b) => a - b);
          const dense = groupOf.map((g) => used.indexOf(g));
          const grouping = groupingOf(Uint32Array.from(dense), used.length);
          const values = Uint32Array.from(valueOf);
          const params: PrivacyParameters = { p, m, epsilon, delta: 0.3, bound: 'simplified' };
          const run = (make: () => unknown) => {
            try {
              return make();
            } catch (error) {
              return { threw: error instanceof RangeError };
            }
          };
          const expected = run(() => referenceRelease(new SeededTestRandomSource(seed), grouping, values, params, p, strict)) as ReturnType<typeof referenceRelease> | { threw: boolean };
          const actual = run(() => reconstructionRelease(new SeededTestRandomSource(seed), { grouping, values, retention: rationalFromNumber(p), params, options: { strict } })) as ReturnType<typeof reconstructionRelease> | { threw: boolean };
          if ('threw' in expected) {
            expect(actual).toEqual(expected);
            return;
          }
          if ('threw' in actual) throw new Error('the release refused what the reference accepted');
          expect([...actual.rows.sourceRow]).toEqual([...expected.rows.sourceRow]);
          expect([...actual.rows.sensitive[0]!]).toEqual([...expected.rows.sensitive[0]!]);
          expect([...actual.groupTrials.trials]).toEqual(expected.trials);
          expect([...actual.groupTrials.trialMaxCount]).toEqual(expected.trialMax);
          expect(actual.stats).toEqual(expected.stats);
          // Each group's released rows, as counting the release's rows by group gives them.
          const byGroup = new Array<number>(grouping.groupCount).fill(0);
          for (const r of actual.rows.sourceRow) byGroup[grouping.groupOfRow[r]!]!++;
          expect([...actual.releasedByGroup]).toEqual(byGroup);
        },
      ),
      { numRuns: 300 },
    );
  });
});
