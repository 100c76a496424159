/**
 * Dates arrive as dates: an Excel date cell (a serial number with a date format) is read as ISO
 * text, whatever the display format or the machine's time zone, and a column of ISO dates is
 * typed `date` in both readers; the date hierarchy generalizes them to month, year and decade.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { dateHierarchy } from '../../src/common/recoding/hierarchy.js';
import { inferType } from '../../src/common/table/table.js';
import { readCsv } from '../../src/io/input/csv-reader.js';
import { readXlsx } from '../../src/io/input/xlsx-reader.js';
import { parseJob } from '../../src/jobs/load-job.js';
import { runJob } from '../../src/jobs/run-job.js';

const options = { missing: [''], onBadRow: 'error' as const };

describe('dates in the readers', () => {
  it('an Excel date cell is ISO text (date, or date-time with a time of day), typed date', () => {
    // As Excel stores them: serial numbers with a date display format (44198 = 2021-01-02).
    const sheet = XLSX.utils.aoa_to_sheet([['id', 'born', 'seen'], [1, 44198, 33069.75], [2, 33069, 44198.5]]);
    for (const ref of ['B2', 'B3']) sheet[ref]!.z = 'm/d/yy';
    for (const ref of ['C2', 'C3']) sheet[ref]!.z = 'yyyy-mm-dd hh:mm';
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'People');
    const path = join(mkdtempSync(join(tmpdir(), 'custos-dates-')), 'people.xlsx');
    writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const { table } = readXlsx(path, options);
    const [, born, seen] = table.columns;
    expect([...born!.codes].map((c) => born!.dictionary[c])).toEqual(['2021-01-02', '1990-07-15']);
    expect([...seen!.codes].map((c) => seen!.dictionary[c])).toEqual(['1990-07-15T18:00:00', '2021-01-02T12:00:00']);
    expect(born!.type).toBe('date');
    expect(seen!.type).toBe('date');
    expect(table.columns[0]!.type).toBe('integer');
  });

  it('a CSV column of ISO dates is typed date; anything else in it makes it text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dates-'));
    writeFileSync(join(dir, 'a.csv'), 'born,visit\n2021-01-02,2021-01-02\n1990-07-15,next week\n');
    const { table } = readCsv(join(dir, 'a.csv'), options);
    expect(table.columns.map((c) => c.type)).toEqual(['date', 'text']);
    expect(inferType(['', '2021-13-01'])).toBe('text');
    expect(inferType(['', '20210102'])).toBe('integer');
  });
});

describe('the date hierarchy', () => {
  it('generalizes to year-month, year, decade, then *', () => {
    const h = dateHierarchy();
    expect([0, 1, 2, 3, 4].map((level) => h.generalize('1994-07-15', level))).toEqual(['1994-07-15', '1994-07', '1994', '1990-1999', '*']);
    expect(h.generalize('2021-01-02T12:00:00', 2)).toBe('2021');
    expect(h.generalize('15/07/1994', 1)).toBeUndefined();
  });

  it('recodes a date column in a k-anonymity job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dates-'));
    const lines = ['born,status'];
    for (let i = 0; i < 200; i++) lines.push(`${1950 + (i % 40)}-0${1 + (i % 9)}-1${i % 10},${i % 3 ? 'a' : 'b'}`);
    writeFileSync(join(dir, 'in.csv'), lines.join('\n') + '\n');
    const job = { version: 1, input: { path: 'in.csv' }, attributes: { status: 'sensitive' }, method: { type: 'partitioned-recoding', parts: 1, model: { type: 'k-anonymity', k: 5 }, hierarchies: { born: { type: 'date' } }, levels: { born: 3 } }, output: { dir: 'out', formats: ['csv'], report: ['json'] } };
    const result = await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(1) });
    const born = result.report.anonymity!.columns.find((c) => c.name === 'born')!;
    expect(born).toMatchObject({ level: 3, depth: 5, hierarchy: 'dates: year-month, year, decade', example: '2021-03-14 → 2020-2029' });
    expect(result.report.risk.minClassSize).toBeGreaterThanOrEqual(5);
    expect(() => parseJob({ ...job, method: { ...job.method, levels: { born: 5 } } }, dir)).toThrow(/beyond the hierarchy's 4 levels/);
  });
});
