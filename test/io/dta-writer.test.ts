import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvRecords } from '../csv-records.js';
import { describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';
import { writeDta } from '../../src/io/output/dta-writer.js';
import { stataVariableNames } from '../../src/io/output/stata-names.js';
import { releasedRows, savWriterTable } from './sav-writer-table.js';
import { compactReleaseTable } from '../../src/io/output/release-table.js';

const CREATED = new Date(Date.UTC(2026, 10, 24, 12, 0, 0));
const tmp = (): string => mkdtempSync(join(tmpdir(), 'custos-dta-'));

describe('Stata writer', () => {
  it('writes the file R haven read: byte for byte the committed one, and haven saw the release\'s values, labels and dates', () => {
    // test/fixtures/stata/custos-written.dta was written by this writer from savWriterTable() and read by
    // R haven 2.5 (read-custos-written.R → custos-written.haven.csv). If the writer's bytes change, write
    // it again and let haven read it again.
    const { table, metadata } = savWriterTable();
    const path = join(tmp(), 'release.dta');
    const written = writeDta(path, table, (c) => metadata.get(c), CREATED);
    const bytes = readFileSync(path);
    expect(written.bytes).toBe(bytes.length);
    expect(bytes.equals(readFileSync('test/fixtures/stata/custos-written.dta'))).toBe(true);
    const haven = csvRecords(readFileSync('test/fixtures/stata/custos-written.haven.csv', 'utf8'));
    expect(haven[0]).toEqual(['id', 'occupation', 'age', 'region', 'visit', 'seen_at', 'salary_class', 'AND', '__proto__']);
    expect(haven.slice(1)).toEqual(releasedRows());
  });

  it('reads back as the release: values, labels of released values only, dates, variable labels', () => {
    const { table, metadata } = savWriterTable();
    const path = join(tmp(), 'release.dta');
    writeDta(path, table, (c) => metadata.get(c), CREATED);
    const back = readTable(path, { missing: [''], onBadRow: 'error' });
    const rows = Array.from({ length: back.table.rowCount }, (_, r) => back.table.columns.map((c) => c.dictionary[c.codes[r]!]!));
    expect(rows).toEqual(releasedRows());
    const variables = new Map((back.variables ?? []).map((v) => [v.name, v]));
    expect([...variables.get('occupation')!.valueLabels].sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { code: '1', label: 'Managers' },
      { code: '3', label: 'Adm-clerical' },
    ]);
    expect(variables.get('occupation')!.label).toBe('Occupation (ISCO major group)');
    expect(variables.get('visit')!.dates).toBe('date');
    expect(variables.get('seen_at')).toMatchObject({ dates: 'datetime', label: 'When the visit began' });
    expect(variables.get('salary_class')!.label).toBe('salary-class');
  });

  it('writes text longer than 2,045 bytes as strLs (each value once, cells naming its first observation), as R haven reads them', () => {
    // test/fixtures/stata/custos-strl.dta was written by this writer from the table below and read by R haven
    // (read-custos-written.R custos-strl.dta custos-strl.haven.csv).
    const letters = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const accents = 'é'.repeat(1100) + 'ü';
    const table = {
      rowCount: 5,
      columns: [
        { name: 'note', dictionary: ['', letters, 'short', accents], codes: new Uint32Array([1, 2, 1, 0, 3]), via: null, numeric: false },
        { name: 'k', dictionary: ['', '1', '2', '3', '4', '5'], codes: new Uint32Array([1, 2, 3, 4, 5]), via: null, numeric: true },
      ],
    };
    const path = join(tmp(), 'release.dta');
    writeDta(path, compactReleaseTable(table), () => undefined, new Date(Date.UTC(2026, 10, 24)));
    const bytes = readFileSync(path);
    expect(bytes.equals(readFileSync('test/fixtures/stata/custos-strl.dta'))).toBe(true);
    // The repeated value is stored once.
    expect(bytes.toString('latin1').split('GSO').length - 1).toBe(3);
    const expected = [[letters, '1'], ['short', '2'], [letters, '3'], ['', '4'], [accents, '5']];
    expect(csvRecords(readFileSync('test/fixtures/stata/custos-strl.haven.csv', 'utf8'))).toEqual([['note', 'k'], ...expected]);
    const back = readTable(path, { missing: [''], onBadRow: 'error' }).table;
    expect(Array.from({ length: back.rowCount }, (_, r) => back.columns.map((c) => c.dictionary[c.codes[r]!]))).toEqual(expected);
  });

  it('makes names Stata accepts, unique', () => {
    expect(stataVariableNames(['a b', 'a_b', 'int', '2nd', 'str12', 'Ok', 'ok', 'ü-ber', 'constructor', ''])).toEqual(['a_b', 'a_b_2', 'int_', '_2nd', 'str12_', 'Ok', 'ok', 'ü_ber', 'constructor', '_']);
    expect(stataVariableNames(['n'.repeat(40), 'n'.repeat(45)]).map((n) => n.length)).toEqual([32, 32]);
  });
});
