import { describe, expect, it } from 'vitest';
import { detectDateFormat, parseDate } from '../date-text.js';

describe('dates as people type them', () => {
  it('reads each format into an ISO date, checking the calendar', () => {
    expect(parseDate('14.03.2021', 'dd.mm.yyyy')).toBe('2021-03-14');
    expect(parseDate('4.3.2021', 'dd.mm.yyyy')).toBe('2021-03-04');
    expect(parseDate('14/03/2021', 'dd/mm/yyyy')).toBe('2021-03-14');
    expect(parseDate('03/14/2021', 'mm/dd/yyyy')).toBe('2021-03-14');
    expect(parseDate('14-03-2021', 'dd-mm-yyyy')).toBe('2021-03-14');
    expect(parseDate('20210314', 'yyyymmdd')).toBe('2021-03-14');
    expect(parseDate(' 14.03.2021 ', 'dd.mm.yyyy')).toBe('2021-03-14');
    // An ISO value (an Excel date cell) is a date in every format.
    expect(parseDate('2021-03-14', 'dd/mm/yyyy')).toBe('2021-03-14');
    expect(parseDate('29.02.2020', 'dd.mm.yyyy')).toBe('2020-02-29');
    for (const [value, format] of [
      ['29.02.2021', 'dd.mm.yyyy'],
      ['31.04.2021', 'dd.mm.yyyy'],
      ['14/03/2021', 'mm/dd/yyyy'],
      ['14.03.2021', 'dd/mm/yyyy'],
      ['14/03-2021', 'dd/mm/yyyy'],
      ['12345678', 'yyyymmdd'],
      ['30001231', 'yyyymmdd'],
      ['2021-3-14', 'yyyy-mm-dd'],
      ['unknown', 'dd.mm.yyyy'],
    ] as const) {
      expect(parseDate(value, format), `${value} as ${format}`).toBeUndefined();
    }
  });

  it('finds a column\'s format from its values, mixed with ISO date cells', () => {
    expect(detectDateFormat(['', '14.03.2021', '2020-01-01', '01.12.1999'])).toEqual({ kind: 'date', format: 'dd.mm.yyyy', typed: 2 });
    expect(detectDateFormat(['', '13/01/2000', '01/02/2000'])).toEqual({ kind: 'date', format: 'dd/mm/yyyy', typed: 2 });
    expect(detectDateFormat(['', '01/13/2000', '01/02/2000'])).toEqual({ kind: 'date', format: 'mm/dd/yyyy', typed: 2 });
    expect(detectDateFormat(['', '19991231', '20000101'])).toEqual({ kind: 'date', format: 'yyyymmdd', typed: 2 });
  });

  it('asks when every day and month is at most 12, and names values that are not dates', () => {
    expect(detectDateFormat(['', '01/02/2000', '12/11/1999'])).toEqual({ kind: 'ambiguous', formats: ['dd/mm/yyyy', 'mm/dd/yyyy'] });
    expect(detectDateFormat(['', '14.03.2021', '31.02.2021', '01.01.2000', 'unknown'])).toEqual({ kind: 'partial', format: 'dd.mm.yyyy', unmatched: ['31.02.2021', 'unknown'], count: 2 });
  });

  it('leaves other columns alone: text, codes of 8 digits that are not all dates, ISO dates only', () => {
    expect(detectDateFormat(['', 'Zürich', 'Genève'])).toBeUndefined();
    expect(detectDateFormat(['', '20210314', '12345678'])).toBeUndefined();
    expect(detectDateFormat(['', '2021-03-14', '2020-01-01'])).toBeUndefined();
    expect(detectDateFormat(['', '1', '2', '3'])).toBeUndefined();
    expect(detectDateFormat([''])).toBeUndefined();
  });
});
