import { describe, expect, it } from 'vitest';
import { MAX_COLUMNS, TableBuilder, TableTooLargeError } from '../table-builder.js';

describe('the table builder refuses tables too large to hold', () => {
  it('refuses more columns than MAX_COLUMNS before allocating them', () => {
    const header = Array.from({ length: MAX_COLUMNS + 1 }, (_, i) => `c${i}`);
    expect(() => new TableBuilder(header, [''])).toThrow(TableTooLargeError);
    expect(new TableBuilder(header.slice(1), ['']).header).toHaveLength(MAX_COLUMNS);
  });

  it('refuses the record that would pass its cell limit, whether added or appended from another thread', () => {
    const builder = new TableBuilder(['a', 'b', 'c'], [''], 12);
    for (let r = 0; r < 4; r++) builder.add(['1', '2', '3']);
    expect(() => builder.add(['1', '2', '3'])).toThrow(expect.objectContaining({ rows: 4, columns: 3 }));
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
});
