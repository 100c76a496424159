import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { releaseStems } from '../node/run.js';

describe('the release file of each sensitive column', () => {
  it('is named after the column where it can be, by position where not, and never twice, even ignoring case', () => {
    expect(releaseStems(['occupation'])).toEqual(['release']);
    expect(releaseStems(['occupation', 'salary'])).toEqual(['release-occupation', 'release-salary']);
    expect(releaseStems(['診断', '収入'])).toEqual(['release-1', 'release-2']);
    expect(releaseStems(['x/y', 'x:y', 'A', 'a'])).toEqual(['release-x_y', 'release-x_y-2', 'release-A', 'release-a-2']);
  });

  it('gives distinct names for any column names (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 2, maxLength: 12 }), (names) => {
        const stems = releaseStems(names).map((s) => s.toLowerCase());
        expect(new Set(stems).size).toBe(names.length);
        for (const stem of stems) expect(stem).toMatch(/^release-[a-z0-9._-]+$/);
      }),
      { seed: 20261125 },
    );
  });
});
