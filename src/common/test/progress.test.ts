import { describe, expect, it } from 'vitest';
import { overallFraction, STAGES, timeLeft } from '../progress.js';

describe('one progress bar for the whole run', () => {
  it('fills each stage its own part, in stage order, and reaches 1 at the end of writing', () => {
    const stages = Object.keys(STAGES);
    const points = stages.flatMap((stage) => [0, 0.5, 1].map((f) => overallFraction(stage, f)));
    for (let i = 1; i < points.length; i++) expect(points[i]!).toBeGreaterThanOrEqual(points[i - 1]!);
    expect(points[0]).toBe(0);
    expect(overallFraction('write', 1)).toBeCloseTo(1, 12);
    // The start of a stage is the end of the one before: a stage starting at 0% never pulls the bar back.
    for (let s = 1; s < stages.length; s++) expect(overallFraction(stages[s], 0)).toBeCloseTo(overallFraction(stages[s - 1], 1), 12);
    expect(overallFraction('unknown', 0.5)).toBe(0);
  });

  it('says the time left once it can', () => {
    expect(timeLeft(1000, 0.5)).toBeUndefined();
    expect(timeLeft(10_000, 0.5)).toBe('about 10 s left');
    expect(timeLeft(60_000, 0.25)).toBe('about 3 min left');
    expect(timeLeft(60_000, 1)).toBeUndefined();
  });
});
