/**
 * A cell of type "s" holds an index into the workbook's shared strings. An index past the end,
 * negative or not a number crashed the reader with a TypeError, and "1e3" or "1.5" silently read
 * string 1: each is refused as a damaged workbook, naming the file, the sheet and the cell.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/input/input-error.js';
import { readTable } from '../../src/io/input/read-table.js';
import { readWorkbookSheets } from '../../src/io/input/xlsx-reader.js';
import { hostileWorkbook } from './hostile-workbook.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-sst-'));
const options = { missing: [''], onBadRow: 'error' as const };

function write(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

function refusal(path: string): InputError {
  try {
    readTable(path, options);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('read without a refusal');
}

describe('shared-string indexes of a workbook', () => {
  it('a valid index reads its string; an empty value reads as an empty cell', () => {
    const read = readTable(write('ok.xlsx', hostileWorkbook('4')), options);
    const town = read.table.columns[1]!;
    expect(Array.from(town.codes, (c) => town.dictionary[c])).toEqual(['Bern', 'Chur', 'Bern', 'Chur', 'Bern', 'Chur']);
    const empty = readTable(write('empty.xlsx', hostileWorkbook('')), options).table.columns[1]!;
    expect(empty.dictionary[empty.codes[5]!]).toBe('');
  });

  const cases: [string, RegExp][] = [
    ['5', /^book\.xlsx: cell Sheet1!B7 refers to shared string 5, but the workbook has 5 \(0 to 4\): the workbook is damaged/],
    ['99', /^book\.xlsx: cell Sheet1!B7 refers to shared string 99, but the workbook has 5 \(0 to 4\)/],
    ['4294967296', /cell Sheet1!B7 refers to shared string 4294967296/],
    ['-1', /^book\.xlsx: cell Sheet1!B7 holds "-1" where a shared-string index is expected \(a whole number from 0 to 4\)/],
    ['__proto__', /cell Sheet1!B7 holds "__proto__" where a shared-string index is expected/],
    ['constructor', /cell Sheet1!B7 holds "constructor"/],
    // parseInt would read these as 1: a silent change of the value, not only a crash.
    ['1e3', /cell Sheet1!B7 holds "1e3"/],
    ['1.5', /cell Sheet1!B7 holds "1.5"/],
    ['0x1', /cell Sheet1!B7 holds "0x1"/],
  ];
  for (const [index, message] of cases) {
    it(`index ${JSON.stringify(index)} is refused naming the file and the cell`, () => {
      const error = refusal(write('book.xlsx', hostileWorkbook(index)));
      expect(error.message).toMatch(message);
      // verify reads a release's workbook through readWorkbookSheets: the same refusal.
      expect(() => readWorkbookSheets(join(dir, 'book.xlsx'), options)).toThrow(message);
    });
  }

  it('a sheet name that needs quoting, and a cell without a reference (its place counted)', () => {
    expect(refusal(write('book.xlsx', hostileWorkbook('7', { sheetName: 'My data' }))).message).toMatch(/cell 'My data'!B7 refers to shared string 7/);
    expect(refusal(write('book.xlsx', hostileWorkbook('7', { cellRef: null }))).message).toMatch(/cell Sheet1!B7 refers to shared string 7/);
  });
});
