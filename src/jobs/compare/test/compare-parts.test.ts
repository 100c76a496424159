import { describe, expect, it } from 'vitest';
import type { ReleaseTable } from '../../../io/output/release-table.js';
import { JobError } from '../../../common/job/job-error.js';
import { bucketGuesses } from '../candidate-risk.js';
import { parseGridAxis } from '../candidates.js';

/** A sensitive table (bucket, value, count) as β-privacy releases it. */
function st(rows: readonly [number, string, number][]): ReleaseTable {
  const column = (name: string, values: readonly string[]) => {
    const dictionary = [...new Set(values)];
    return { name, dictionary, codes: Uint32Array.from(values, (v) => dictionary.indexOf(v)), via: null, numeric: false };
  };
  return {
    rowCount: rows.length,
    columns: [column('bucket', rows.map((r) => String(r[0]))), column('diag', rows.map((r) => r[1])), column('count', rows.map((r) => String(r[2])))],
  };
}

describe('β-privacy risk: the most-listed value of each bucket', () => {
  it('recovers every record of a repeated value, and real/listed of one record when all are listed once', () => {
    // Bucket 1: a listed 3 times (real), b and a fake once: the guess "a" is right for 3 records.
    // Bucket 2: two real values and one fake, each once: a guess is right with probability 2/3, for one record.
    const table = st([
      [1, 'a', 3], [1, 'b', 1], [1, 'z', 1],
      [2, 'a', 1], [2, 'c', 1], [2, 'y', 1],
    ]);
    expect(bucketGuesses(table, 1)).toBeCloseTo(3 + 2 / 3, 12);
    // Without fakes every value listed once is real: one record of the bucket is recovered for sure.
    expect(bucketGuesses(st([[1, 'a', 1], [1, 'b', 1]]), 0)).toBe(1);
  });
});

describe('--grid', () => {
  it('reads numbers, booleans and quoted text as JSON, anything else as text', () => {
    expect(parseGridAxis('retention=0.3,0.5').values).toEqual([0.3, 0.5]);
    expect(parseGridAxis('strict=true,false').values).toEqual([true, false]);
    expect(parseGridAxis('levels=search,"x"').values).toEqual(['search', 'x']);
    expect(parseGridAxis('target.epsilon=1').key).toBe('target.epsilon');
  });

  it('refuses a grid without a key or with an empty value, naming it', () => {
    expect(() => parseGridAxis('retention')).toThrow(JobError);
    try {
      parseGridAxis('retention=0.3,');
    } catch (error) {
      expect((error as JobError).key).toBe('method.retention');
    }
    expect.assertions(2);
  });
});
