import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';
import type { ImportedTable } from '../../src/io/input/import-types.js';
import { ibmFloat } from '../../src/io/input/sas-transport-reader.js';

/** Written by R's haven (ReadStat) from test/fixtures/sas/make-fixtures.R. */
const fixture = (version: 5 | 8): string => join('test/fixtures/sas', `people-v${version}.xpt`);

function rows(imported: ImportedTable): Record<string, string>[] {
  const { table } = imported;
  return Array.from({ length: table.rowCount }, (_, r) => Object.fromEntries(table.columns.map((c) => [c.name, c.dictionary[c.codes[r]!]!])));
}

describe('SAS transport files (.xpt, versions 5 and 8)', () => {
  for (const version of [5, 8] as const) {
    it(`version ${version}: numbers from IBM floats, missing values missing, DATE and DATETIME as ISO dates${version === 8 ? ', names longer than 8' : ''}`, () => {
      const imported = readTable(fixture(version), { missing: [''], onBadRow: 'error' });
      expect(imported.format).toBe('xpt');
      const income = version === 8 ? 'household_income_chf' : 'income';
      expect(rows(imported)).toEqual([
        { id: '1', age: '34', region: 'Zurich', visit: '2024-01-15', seen: '2024-01-15T08:30:00', [income]: '4250.5' },
        { id: '2', age: '51', region: 'Geneva', visit: '2024-02-29', seen: '2024-02-29T17:05:10', [income]: '' },
        { id: '3', age: '', region: 'Zurich', visit: '1999-12-31', seen: '1999-12-31T23:59:59', [income]: '3100' },
        { id: '4', age: '28', region: 'Basel', visit: '2020-07-04', seen: '2020-07-04T00:00:00', [income]: '2800.75' },
        { id: '5', age: '45', region: 'Bern', visit: '2023-03-01', seen: '2023-03-01T12:00:00', [income]: '0.1' },
      ]);
      const variables = new Map((imported.variables ?? []).map((v) => [v.name, v]));
      expect(variables.get('age')).toMatchObject({ label: 'Age in years', declaredMissing: 1 });
      expect(variables.get('visit')!.dates).toBe('date');
      expect(variables.get('seen')!.dates).toBe('datetime');
    });
  }

  it('IBM floating point as TS-140 defines it, and every SAS missing value', () => {
    expect(ibmFloat(Uint8Array.of(0x41, 0x10, 0, 0, 0, 0, 0, 0))).toBe(1);
    expect(ibmFloat(Uint8Array.of(0xc2, 0x76, 0xa0, 0, 0, 0, 0, 0))).toBe(-118.625);
    expect(ibmFloat(Uint8Array.of(0x40, 0x80, 0, 0, 0, 0, 0, 0))).toBe(0.5);
    expect(ibmFloat(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0))).toBe(0);
    for (const code of ['.', 'A', 'Z', '_']) expect(ibmFloat(Uint8Array.of(code.charCodeAt(0), 0, 0, 0, 0, 0, 0, 0))).toBeUndefined();
  });

  it('a truncated file is refused naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-xpt-'));
    writeFileSync(join(dir, 'cut.xpt'), readFileSync(fixture(5)).subarray(0, 500));
    expect(() => readTable(join(dir, 'cut.xpt'), { missing: [''], onBadRow: 'error' })).toThrow(/cut\.xpt: .*(truncated|damaged)/);
  });

  it('integers up to 2^53 stay exact (identifiers), DATEAMPM is a date-time', () => {
    const values = rows(readTable('test/fixtures/sas/numbers-v8.xpt', { missing: [''], onBadRow: 'error' }));
    expect(values.map((r) => r['big'])).toEqual(['1234567890123456', '0.1', '9007199254740991']);
    expect(values.map((r) => r['dt'])).toEqual(['2030-01-01T00:00:00', '1960-01-01T00:00:00', '1960-01-01T00:00:01']);
    // A label longer than 40 characters is whole (version 8 keeps it in a LABELV8 record).
    const imported = readTable('test/fixtures/sas/numbers-v8.xpt', { missing: [''], onBadRow: 'error' });
    expect(imported.variables![0]!.label).toBe('This is a label that is clearly longer than forty characters, about seventy');
  });
});
