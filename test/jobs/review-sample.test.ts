import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnSample, countCodes } from '../../src/jobs/review/review-release.js';

/** What the direct-identifier detectors see of a released column: every value some record holds (up to 400), first seen first. */
describe('the review’s sample of a column', () => {
  it('holds the values records hold in order of first record, up to 400, whatever rows show them last (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600 }),
        fc.array(fc.nat(), { minLength: 0, maxLength: 2000 }),
        fc.nat(),
        (size, raw, late) => {
          const dictionary = ['', ...Array.from({ length: size }, (_, k) => `v${k}`)];
          const codes = Uint32Array.from(raw, (c) => c % dictionary.length);
          // A value shown only by the last row is still seen.
          const last = 1 + (late % size);
          const all = Uint32Array.from([...codes.filter((c) => c !== last), last]);
          const sample = columnSample('c', dictionary, all, countCodes(all, dictionary.length));
          const firstSeen = [...new Set([...all].filter((c) => c !== 0))].map((c) => dictionary[c]!);
          expect(sample.values).toEqual(firstSeen.slice(0, 400));
          expect(sample.distinct).toBe(firstSeen.length);
          expect(sample.present).toBe([...all].filter((c) => c !== 0).length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
