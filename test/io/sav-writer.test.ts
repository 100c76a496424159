import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';
import { SavStringTooLongError, writeSav } from '../../src/io/output/sav-writer.js';
import { spssVariableNames } from '../../src/io/output/spss-names.js';
import { releasedRows, savWriterTable } from './sav-writer-table.js';
import { compactReleaseTable } from '../../src/io/output/release-table.js';

const CREATED = new Date(Date.UTC(2026, 10, 24, 12, 0, 0));
const tmp = (): string => mkdtempSync(join(tmpdir(), 'custos-sav-'));

describe('SPSS writer', () => {
  it('writes the file PSPP read: byte for byte the committed one, and PSPP saw the release\'s values and labels', () => {
    // test/fixtures/spss/custos-written.sav was written by this writer from savWriterTable() and read by
    // PSPP 1.6 (`pspp-convert --labels custos-written.sav custos-written.pspp-labels.csv`). If the
    // writer's bytes change, write it again and let PSPP read it again.
    const { table, metadata } = savWriterTable();
    const path = join(tmp(), 'release.sav');
    const written = writeSav(path, table, (c) => metadata.get(c), CREATED);
    const bytes = readFileSync(path);
    expect(written.bytes).toBe(bytes.length);
    expect(bytes.equals(readFileSync('test/fixtures/spss/custos-written.sav'))).toBe(true);

    const pspp = readFileSync('test/fixtures/spss/custos-written.pspp-labels.csv', 'utf8').trim().split('\n').map((line) => line.split(','));
    expect(pspp[0]).toEqual(['id', 'occupation', 'age', 'region', 'visit', 'seen_at', 'salary_class', 'AND_', 'v__proto__']);
    // PSPP prints dates as mm/dd/yyyy and a missing number as a blank.
    const usDate = (iso: string): string => iso.replace(/^(\d{4})-(\d{2})-(\d{2})/, '$2/$3/$1').replace('T', ' ');
    const expected = releasedRows().map((row) => row.map((v, j) => (v === '' && [0, 2, 4, 5, 6].includes(j) ? ' ' : j === 4 || j === 5 ? usDate(v) : v)));
    expect(pspp.slice(1)).toEqual(expected);
  });

  it('reads back as the release: values, labels of released values only, dates, variable labels, valid names', () => {
    const { table, metadata } = savWriterTable();
    const path = join(tmp(), 'release.sav');
    writeSav(path, table, (c) => metadata.get(c), CREATED);
    const back = readTable(path, { missing: [''], onBadRow: 'error' });
    const rows = Array.from({ length: back.table.rowCount }, (_, r) => back.table.columns.map((c) => c.dictionary[c.codes[r]!]!));
    expect(rows).toEqual(releasedRows());
    const variables = new Map((back.variables ?? []).map((v) => [v.name, v]));
    // "Professionals" labels a code no released record has: it is not written.
    expect([...variables.get('occupation')!.valueLabels].sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { code: '1', label: 'Managers' },
      { code: '3', label: 'Adm-clerical' },
    ]);
    expect(variables.get('occupation')!.label).toBe('Occupation (ISCO major group)');
    expect(variables.get('visit')!.dates).toBe('date');
    expect(variables.get('seen_at')).toMatchObject({ dates: 'datetime', label: 'When the visit began' });
    expect(variables.get('salary_class')!.label).toBe('salary-class');
    expect(variables.get('v__proto__')!.label).toBe('__proto__');
  });

  it('writes a labelled column as text when a released value has no code (a generalized or starred value)', () => {
    const { table, metadata } = savWriterTable();
    const occupation = table.columns[1]!;
    const starred = { ...table, columns: table.columns.map((c, j) => (j === 1 ? { ...occupation, dictionary: occupation.dictionary.map((v, i) => (i === 0 ? '*' : v)) } : c)) };
    const path = join(tmp(), 'release.sav');
    writeSav(path, compactReleaseTable(starred), (c) => metadata.get(c), CREATED);
    const back = readTable(path, { missing: [''], onBadRow: 'error' });
    const column = back.table.columns[1]!;
    expect(Array.from(column.codes, (k) => column.dictionary[k])).toEqual(['*', 'Managers', '*', 'Managers']);
    expect(back.variables!.find((v) => v.name === 'occupation')!.valueLabels).toEqual([]);
  });

  it('writes strings longer than 255 bytes as SPSS very long strings (segments), as PSPP reads them', () => {
    // test/fixtures/spss/custos-very-long.sav was written by this writer from the table below and read by
    // PSPP 1.6 (`pspp-convert custos-very-long.sav custos-very-long.pspp.csv`; SYSFILE INFO: note A601, no warning).
    const letters = Array.from({ length: 600 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    // 601 bytes: a two-byte character straddles the 255-byte segment boundaries.
    const accents = 'é'.repeat(300) + 'x';
    const table = {
      rowCount: 3,
      columns: [
        { name: 'note', dictionary: [letters, 'short', accents], codes: new Uint32Array([0, 1, 2]), via: null, numeric: false },
        { name: 'k', dictionary: ['1', '2', '3'], codes: new Uint32Array([0, 1, 2]), via: null, numeric: true },
      ],
    };
    const path = join(tmp(), 'release.sav');
    writeSav(path, compactReleaseTable(table), () => undefined, new Date(Date.UTC(2026, 10, 24)));
    expect(readFileSync(path).equals(readFileSync('test/fixtures/spss/custos-very-long.sav'))).toBe(true);
    const pspp = readFileSync('test/fixtures/spss/custos-very-long.pspp.csv', 'utf8').trim().split(/\r?\n/).map((line) => line.split(','));
    expect(pspp).toEqual([['note', 'k'], [letters, '1'], ['short', '2'], [accents, '3']]);
    const back = readTable(path, { missing: [''], onBadRow: 'error' }).table;
    expect(Array.from({ length: back.rowCount }, (_, r) => back.columns.map((c) => c.dictionary[c.codes[r]!]))).toEqual([[letters, '1'], ['short', '2'], [accents, '3']]);
  });

  it('refuses a string longer than SPSS holds, naming the column, and makes names SPSS accepts, unique regardless of case', () => {
    const long = { rowCount: 1, columns: [{ name: 'note', dictionary: ['é'.repeat(16_400)], codes: new Uint32Array([0]), via: null, numeric: false }] };
    expect(() => writeSav(join(tmp(), 'x.sav'), compactReleaseTable(long), () => undefined, CREATED)).toThrow(SavStringTooLongError);
    expect(() => writeSav(join(tmp(), 'x.sav'), compactReleaseTable(long), () => undefined, CREATED)).toThrow(/"note" holds values of 32,800 bytes; an SPSS file holds strings up to 32,767 bytes/);
    expect(spssVariableNames(['a b', 'A_B', 'with', '2nd', 'x.', 'ok', 'OK', 'ü-ber', 'constructor'])).toEqual(['a_b', 'A_B_2', 'with_', 'v2nd', 'x._', 'ok', 'OK_2', 'ü_ber', 'constructor']);
    const long64 = spssVariableNames(['n'.repeat(80), 'n'.repeat(70)]);
    expect(long64.map((n) => Buffer.byteLength(n))).toEqual([64, 64]);
    expect(new Set(long64.map((n) => n.toUpperCase())).size).toBe(2);
  });
});
