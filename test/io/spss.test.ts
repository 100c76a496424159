import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';
import type { ImportedTable } from '../../src/io/input/import-types.js';

/** Written by PSPP from test/fixtures/spss/make-fixtures.sps: the same five cases three ways. */
const FIXTURES = ['people-plain.sav', 'people-bytecode.sav', 'people.zsav'].map((f) => join('test/fixtures/spss', f));

function rows(imported: ImportedTable): Record<string, string>[] {
  const { table } = imported;
  return Array.from({ length: table.rowCount }, (_, r) => Object.fromEntries(table.columns.map((c) => [c.name, c.dictionary[c.codes[r]!]!])));
}

describe('SPSS system files (.sav uncompressed and bytecode, .zsav)', () => {
  for (const path of FIXTURES) {
    it(`${path}: value labels as values, declared missing values missing, dates as dates, long names and long strings whole`, () => {
      const imported = readTable(path, { missing: [''], onBadRow: 'error' });
      expect(imported.format).toBe('sav');
      expect(imported.table.columns.map((c) => c.name)).toEqual(['id', 'occupation', 'age', 'region', 'visit', 'household_income_chf', 'note']);
      expect(rows(imported)).toEqual([
        { id: '1', occupation: 'Adm-clerical', age: '34', region: 'Zürich', visit: '2024-01-15', household_income_chf: '4250.5', note: 'first' },
        // -1 is in the declared range LO THRU 0; 99, code 9 and "Genève" (a long string's, in record 22) are declared missing.
        { id: '2', occupation: 'Managers', age: '51', region: '', visit: '2024-02-29', household_income_chf: '', note: 'second' },
        { id: '3', occupation: 'Adm-clerical', age: '', region: 'Zürich', visit: '1999-12-31', household_income_chf: '3100', note: 'third' },
        { id: '4', occupation: 'Professionals', age: '28', region: '  Basel', visit: '2020-07-04', household_income_chf: '', note: 'fourth' },
        { id: '5', occupation: '', age: '45', region: 'Bern (the capital)', visit: '2023-03-01', household_income_chf: '2800.75', note: 'fifth' },
      ]);
      const byName = new Map(imported.table.columns.map((c) => [c.name, c]));
      expect(byName.get('visit')!.type).toBe('date');
      expect(byName.get('age')!.type).toBe('integer');
      const variables = new Map((imported.variables ?? []).map((v) => [v.name, v]));
      expect(variables.get('occupation')).toMatchObject({ label: 'Occupation (ISCO major group)', declaredMissing: 1 });
      expect([...variables.get('occupation')!.valueLabels].sort((a, b) => a.code.localeCompare(b.code))).toEqual([
        { code: '1', label: 'Managers' },
        { code: '2', label: 'Professionals' },
        { code: '3', label: 'Adm-clerical' },
      ]);
      expect(variables.get('household_income_chf')!.declaredMissing).toBe(2);
      // A string longer than 8 bytes keeps its labels and missing values in extension records 21 and 22.
      expect(variables.get('region')).toMatchObject({ declaredMissing: 1, valueLabels: [{ code: 'Bern', label: 'Bern (the capital)' }] });
      expect(variables.get('visit')).toMatchObject({ label: 'Date of the visit', dates: 'date' });
    });
  }

  it('a .sav with another name is still read as SPSS; a truncated one is refused naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-sav-'));
    copyFileSync(FIXTURES[1]!, join(dir, 'export.dat'));
    expect(readTable(join(dir, 'export.dat'), { missing: [''], onBadRow: 'error' }).table.rowCount).toBe(5);
    const bytes = readFileSync(FIXTURES[0]!);
    writeFileSync(join(dir, 'cut.sav'), bytes.subarray(0, bytes.length - 20));
    expect(() => readTable(join(dir, 'cut.sav'), { missing: [''], onBadRow: 'error' })).toThrow(/cut\.sav.*(truncated|declares 5 cases)/);
    writeFileSync(join(dir, 'head.sav'), bytes.subarray(0, 300));
    expect(() => readTable(join(dir, 'head.sav'), { missing: [''], onBadRow: 'error' })).toThrow(/head\.sav: the SPSS file ends inside its dictionary/);
  });

  it('a .zsav is inflated a block at a time, and reading stops at a case past the declared count', () => {
    // people.zsav's dictionary with a data part of 1,000 blocks of 4 MB, each of bytecode 101 (the number 1):
    // 4 GB of cases from a 30 KB file. Inflated whole it would be 4 GB of memory.
    const fixture = readFileSync(FIXTURES[2]!);
    const zheaderAt = 2494;
    expect(Number(fixture.readBigInt64LE(zheaderAt))).toBe(zheaderAt);
    const blockSize = 4_190_208;
    const block = deflateSync(Buffer.alloc(blockSize, 101));
    const blocks = 1000;
    const zsav = (compressedAt: (b: number) => number, stored: number): Buffer => {
      const trailerAt = zheaderAt + 24 + stored * block.length;
      const trailer = Buffer.alloc(24 + 24 * blocks);
      trailer.writeBigInt64LE(-100n, 0);
      trailer.writeInt32LE(blockSize, 16);
      trailer.writeInt32LE(blocks, 20);
      for (let b = 0; b < blocks; b++) {
        trailer.writeBigInt64LE(BigInt(zheaderAt + b * blockSize), 24 + 24 * b);
        trailer.writeBigInt64LE(BigInt(compressedAt(b)), 32 + 24 * b);
        trailer.writeInt32LE(blockSize, 40 + 24 * b);
        trailer.writeInt32LE(block.length, 44 + 24 * b);
      }
      const zheader = Buffer.alloc(24);
      zheader.writeBigInt64LE(BigInt(zheaderAt), 0);
      zheader.writeBigInt64LE(BigInt(trailerAt), 8);
      zheader.writeBigInt64LE(BigInt(trailer.length), 16);
      return Buffer.concat([fixture.subarray(0, zheaderAt), zheader, ...Array.from({ length: stored }, () => block), trailer]);
    };
    const dir = mkdtempSync(join(tmpdir(), 'custos-zsav-'));
    writeFileSync(join(dir, 'bomb.zsav'), zsav((b) => zheaderAt + 24 + b * block.length, blocks));
    const started = performance.now();
    expect(() => readTable(join(dir, 'bomb.zsav'), { missing: [''], onBadRow: 'error' })).toThrow(/^bomb\.zsav: the SPSS file declares 5 cases but holds more; it is damaged$/);
    // One block inflated (milliseconds), not a thousand.
    expect(performance.now() - started).toBeLessThan(2000);
    // Entries that name the same compressed bytes again (a 30 KB file claiming 4 GB, however many cases it declares) are damage.
    writeFileSync(join(dir, 'reused.zsav'), zsav(() => zheaderAt + 24, 1));
    expect(() => readTable(join(dir, 'reused.zsav'), { missing: [''], onBadRow: 'error' })).toThrow(/^reused\.zsav: data block 2 of the \.zsav file starts at byte \d+, not where the block before it ends/);
  });

  it('a variable declaring more than three missing values is refused (each cell would be compared with all of them)', () => {
    const bytes = Buffer.from(readFileSync(FIXTURES[0]!));
    // The first variable record follows the 176-byte file header; its count of missing values is its fourth field.
    expect(bytes.readInt32LE(176)).toBe(2);
    bytes.writeInt32LE(200_000, 188);
    const dir = mkdtempSync(join(tmpdir(), 'custos-sav-missing-'));
    writeFileSync(join(dir, 'missing.sav'), bytes);
    expect(() => readTable(join(dir, 'missing.sav'), { missing: [''], onBadRow: 'error' })).toThrow(/^missing\.sav: the variable "ID" declares 200000 missing values; an SPSS file declares at most 3$/);
  });

  it('short strings keep their labels and missing values (padded with NULs), very long strings keep every byte, other code pages decode', () => {
    const short = readTable('test/fixtures/spss/short-strings.sav', { missing: [''], onBadRow: 'error' });
    expect(rows(short)).toEqual([
      { a: 'xx', b: '1', c: 'long', d: '', e: 'Kay' },
      { a: '', b: '2', c: 'abc', d: 'six', e: '' },
      { a: 'zz', b: '', c: 'SHORT!', d: '', e: 'q' },
    ]);
    const long = rows(readTable('test/fixtures/spss/very-long.sav', { missing: [''], onBadRow: 'error' }))[0]!['c']!;
    expect(long).toBe('0123456789'.repeat(60));
    expect(rows(readTable('test/fixtures/spss/koi8r.sav', { missing: [''], onBadRow: 'error' }))).toEqual([{ s: 'Привет' }]);
  });

  it('the case weight is named in the metadata (the methods do not weight records)', () => {
    const imported = readTable('test/fixtures/spss/weighted.sav', { missing: [''], onBadRow: 'error' });
    const weighted = (imported.variables ?? []).filter((v) => v.weight);
    expect(weighted.map((v) => v.name)).toEqual(['wt']);
  });
});
