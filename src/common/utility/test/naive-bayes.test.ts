import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addRecord, emptyCounts, MISSING_BIN, predict, subtractCounts, trainNaiveBayes } from '../naive-bayes.js';

/** x, y pairs: (0,0)×3, (1,0)×1, (1,1)×2. */
function small() {
  const counts = emptyCounts(2, [2]);
  for (const [x, y, times] of [[0, 0, 3], [1, 0, 1], [1, 1, 2]] as const) for (let i = 0; i < times; i++) addRecord(counts, [x], y);
  return counts;
}

describe('naive Bayes, computed by hand', () => {
  it('priors and likelihoods with Laplace smoothing', () => {
    const model = trainNaiveBayes(small());
    // P(y) = (N_y + 1)/(6 + 2): 5/8 and 3/8.
    expect(Math.exp(model.logPrior[0]!)).toBeCloseTo(5 / 8, 14);
    expect(Math.exp(model.logPrior[1]!)).toBeCloseTo(3 / 8, 14);
    // P(x | y) = (N_xy + 1)/(N_y + 2): x=0|y=0 4/6, x=1|y=0 2/6, x=0|y=1 1/4, x=1|y=1 3/4 (stored at x·2 + y).
    expect(Array.from(model.logLikelihood[0]!, Math.exp).map((v) => Number(v.toFixed(12)))).toEqual([4 / 6, 1 / 4, 2 / 6, 3 / 4].map((v) => Number(v.toFixed(12))));
  });

  it('predictions: x = 0 → 0 (5/8·4/6 > 3/8·1/4), x = 1 → 1 (3/8·3/4 > 5/8·2/6), missing → the prior', () => {
    const model = trainNaiveBayes(small());
    expect(predict(model, [0])).toBe(0);
    expect(predict(model, [1])).toBe(1);
    expect(predict(model, [MISSING_BIN])).toBe(0);
  });

  it('equal scores go to the first class; negative counts count as 0', () => {
    expect(predict(trainNaiveBayes(emptyCounts(3, [2])), [1])).toBe(0);
    const counts = emptyCounts(2, [1]);
    addRecord(counts, [0], 0, -5);
    addRecord(counts, [0], 1, 1);
    const model = trainNaiveBayes(counts);
    // Class 0's −5 is read as 0: P(0) = 1/3, P(1) = 2/3.
    expect(Math.exp(model.logPrior[0]!)).toBeCloseTo(1 / 3, 14);
    expect(predict(model, [0])).toBe(1);
  });

  it('the counts of every record but a fold\'s are the counts of those records (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 1 }), fc.boolean()), { maxLength: 30 }), (records) => {
        const whole = emptyCounts(2, [3]);
        const fold = emptyCounts(2, [3]);
        const rest = emptyCounts(2, [3]);
        for (const [x, y, inFold] of records) {
          addRecord(whole, [x], y);
          addRecord(inFold ? fold : rest, [x], y);
        }
        const difference = subtractCounts(whole, fold);
        expect(Array.from(difference.classCounts)).toEqual(Array.from(rest.classCounts));
        expect(Array.from(difference.features[0]!.counts)).toEqual(Array.from(rest.features[0]!.counts));
      }),
    );
  });
});
