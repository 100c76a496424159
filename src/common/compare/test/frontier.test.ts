import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dominates, frontier, type RiskErrorPoint } from '../frontier.js';

/** The definition, point against point: on the frontier when placed and no placed point dominates it. */
function bruteForce(points: readonly RiskErrorPoint[]): boolean[] {
  const placed = (p: RiskErrorPoint) => Number.isFinite(p.risk) && Number.isFinite(p.error);
  return points.map((p) => placed(p) && !points.some((q) => placed(q) && q.risk <= p.risk && q.error <= p.error && (q.risk < p.risk || q.error < p.error)));
}

// Few distinct values, so ties on one axis or both are common.
const coordinate = fc.oneof(fc.integer({ min: 0, max: 6 }).map((v) => v / 4), fc.double({ min: 0, max: 2, noNaN: true }), fc.constant(Number.NaN));
const point = fc.record({ risk: coordinate, error: coordinate });

describe('the risk–error frontier', () => {
  it('equals the brute-force dominance check on random points', () => {
    fc.assert(
      fc.property(fc.array(point, { maxLength: 40 }), (points) => {
        expect(frontier(points)).toEqual(bruteForce(points));
      }),
      { seed: 18, numRuns: 2000 },
    );
  });

  it('keeps equal points together and drops a point worse on one axis only', () => {
    const points = [
      { risk: 0.1, error: 0.5 },
      { risk: 0.1, error: 0.5 },
      { risk: 0.1, error: 0.6 },
      { risk: 0.3, error: 0.2 },
      { risk: 0.3, error: 0.2 + 1e-12 },
      { risk: 0, error: Number.NaN },
    ];
    expect(frontier(points)).toEqual([true, true, false, true, false, false]);
    expect(dominates(points[0]!, points[2]!)).toBe(true);
    expect(dominates(points[0]!, points[1]!)).toBe(false);
  });
});
