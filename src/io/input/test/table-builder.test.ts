import { describe, expect, it } from 'vitest';
import { TableBuilder } from '../table-builder.js';
import { MAX_COLUMNS, TableTooLargeError, TextBudget } from '../table-limits.js';

describe('the table builder refuses tables too large to hold', () => {
  it('refuses more columns than MAX_COLUMNS before allocating them', () => {
    const header = Array.from({ length: MAX_COLUMNS + 1 }, (_, i) => `c${i}`);
    expect(() => new TableBuilder(header, [''])).toThrow(TableTooLargeError);
    expect(new TableBuilder(header.slice(1), ['']).header).toHaveLength(MAX_COLUMNS);
  });

  it('refuses the record that would pass its cell limit, whether added or appended from another thread', () => {
    const builder = new TableBuilder(['a', 'b', 'c'], [''], 12);
    for (let r = 0; r < 4; r++) builder.add(['1', '2', '3']);
    expect(() => builder.add(['1', '2', '3'])).toThrow(/more than 4 rows × 3 columns/);
    expect(builder.rowCount).toBe(4);

    const first = new TableBuilder(['a', 'b'], [''], 10);
    first.add(['x', 'y']);
    const second = new TableBuilder(['a', 'b'], ['']);
    for (let r = 0; r < 5; r++) second.add(['x', 'z']);
    expect(() => first.append(second.parts())).toThrow(TableTooLargeError);
    const fits = new TableBuilder(['a', 'b'], [''], 12);
    fits.add(['x', 'y']);
    fits.append(second.parts());
    expect(fits.build().rowCount).toBe(6);
  });

  it('refuses the value that would take the distinct values past their character budget, shared by every column and by appended parts', () => {
    const builder = new TableBuilder(['a', 'b'], [''], undefined, new TextBudget(10));
    builder.add(['abc', 'def']);
    // Repeated values cost nothing more.
    for (let r = 0; r < 100; r++) builder.add(['abc', 'def']);
    builder.add(['wxyz', '']);
    expect(() => builder.add(['a', 'bc'])).toThrow(/distinct values hold more than 1,073,741,824 characters/);
    const first = new TableBuilder(['a'], [''], undefined, new TextBudget(5));
    first.add(['abc']);
    const second = new TableBuilder(['a'], ['']);
    second.add(['abc']);
    second.add(['xyz']);
    expect(() => first.append(second.parts())).toThrow(TableTooLargeError);
  });
});
