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

describe('the table builder holds codes in the narrowest width while reading', () => {
  // Values at column j, row r: `${r % distinct}`, so the dictionary has `distinct` entries plus missing.
  const read = (distinct: number, rows: number): TableBuilder => {
    const builder = new TableBuilder(['a'], ['']);
    for (let r = 0; r < rows; r++) builder.add([r % 7 === 3 ? '' : String(r % distinct)]);
    return builder;
  };
  const expected = (distinct: number, rows: number): Uint32Array => {
    // The first value met gets code 1, in order of first appearance; missing is 0.
    const codes = new Map<string, number>();
    return Uint32Array.from({ length: rows }, (_, r) => {
      if (r % 7 === 3) return 0;
      const value = String(r % distinct);
      if (!codes.has(value)) codes.set(value, codes.size + 1);
      return codes.get(value)!;
    });
  };

  const sameCodes = (a: Uint32Array, b: Uint32Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

  it('one byte up to 255 values, two up to 65,535, four beyond; the codes are those of Uint32 throughout', () => {
    for (const [distinct, width] of [
      [255, Uint8Array],
      [256, Uint16Array],
      [80_000, Uint32Array],
    ] as const) {
      const rows = distinct + 300;
      const builder = read(distinct, rows);
      expect(builder.parts().codes[0]).toBeInstanceOf(width);
      expect(sameCodes(builder.build().columns[0]!.codes, expected(distinct, rows))).toBe(true);
    }
  });

  it('appends another thread\'s compact part mapped to its own codes, widening when the mapped codes need it', () => {
    const first = read(200, 1_000);
    // The second part's values are new here: mapped after the first's 200, they pass 255.
    const second = new TableBuilder(['a'], ['']);
    for (let r = 0; r < 500; r++) second.add([`n${r % 100}`]);
    expect(second.parts().codes[0]).toBeInstanceOf(Uint8Array);
    first.append(second.parts());
    expect(first.parts().codes[0]).toBeInstanceOf(Uint16Array);
    const codes = first.build().columns[0]!.codes;
    expect(codes.subarray(0, 1_000)).toEqual(expected(200, 1_000));
    expect(codes.subarray(1_000)).toEqual(Uint32Array.from({ length: 500 }, (_, r) => 201 + (r % 100)));
  });
});

describe('the table builder hands its columns to helper threads without a copy', () => {
  it('builds every column in shared memory, with the codes it was given', () => {
    const builder = new TableBuilder(['a', 'b'], ['']);
    builder.add(['x', '1']);
    builder.add(['y', '']);
    builder.add(['x', '2']);
    const table = builder.build();
    for (const column of table.columns) expect(column.codes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(table.columns.map((c) => [...c.codes].map((code) => c.dictionary[code]))).toEqual([['x', 'y', 'x'], ['1', '', '2']]);
  });
});
