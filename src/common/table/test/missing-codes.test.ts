import { describe, expect, it } from 'vitest';
import { missingCandidates } from '../missing-codes.js';
import { tableFromRows } from '../table.js';

describe('missing-value codes proposed from the file', () => {
  it('finds the usual tokens anywhere, negative codes below and nines far above a column of numbers', () => {
    const table = tableFromRows(
      ['age', 'income', 'region', 'score'],
      [
        ['34', '-9', 'North', '12'],
        ['NA', '52000', '.', '99'],
        ['999', '48000', 'South', '40'],
        ['41', '-9', 'South', '-1'],
        ['', '61000', 'North', '7'],
      ],
      [],
    );
    expect(missingCandidates(table.columns)).toEqual([
      { code: '-9', columns: ['income'], count: 2 },
      { code: 'NA', columns: ['age'], count: 1 },
      { code: '', columns: ['age'], count: 1 },
      { code: '999', columns: ['age'], count: 1 },
      { code: '.', columns: ['region'], count: 1 },
      { code: '99', columns: ['score'], count: 1 },
      { code: '-1', columns: ['score'], count: 1 },
    ]);
  });

  it('proposes nothing for real values: 99 beside 98, -1 among negative numbers, codes already read as missing', () => {
    const table = tableFromRows(['age', 'change', 'x'], [['99', '-1', 'NA'], ['98', '-5', 'a'], ['40', '3', 'b']], ['NA']);
    expect(missingCandidates(table.columns)).toEqual([]);
  });
});
