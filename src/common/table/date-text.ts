import { ISO_DATE } from './table.js';

/**
 * Dates as people type them, and the ISO 8601 form every part of Custos reads dates in (the date
 * hierarchy, the readers of statistical packages, an Excel date cell). A column's format is one of
 * these; "text" in a job keeps a column that looks like dates as it was typed.
 */
export const DATE_FORMATS = ['yyyy-mm-dd', 'dd.mm.yyyy', 'dd/mm/yyyy', 'mm/dd/yyyy', 'dd-mm-yyyy', 'yyyymmdd'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const NOT_A_DATE = 'text';
export type DateReading = DateFormat | typeof NOT_A_DATE;

/** The formats whose day and month can swap places: a column whose every value fits both is ambiguous. */
const SWAPPED: readonly [DateFormat, DateFormat] = ['dd/mm/yyyy', 'mm/dd/yyyy'];

const SEPARATED = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;

/** yyyymmdd is also what an 8-digit code looks like: only years a register plausibly holds are read as dates. */
const COMPACT_YEARS = { from: 1850, to: 2100 } as const;

function iso(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1) return undefined;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  if (day > days) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The value as an ISO date when it is a calendar date in the format (surrounding spaces ignored),
 * else undefined. A value already ISO (an Excel date cell, a date-time) is a date in every format:
 * a column mixing date cells and typed dates reads as one column of dates.
 */
export function parseDate(value: string, format: DateFormat): string | undefined {
  const text = value.trim();
  if (ISO_DATE.test(text)) return text;
  if (format === 'yyyy-mm-dd') return undefined;
  if (format === 'yyyymmdd') {
    const m = COMPACT.exec(text);
    if (!m) return undefined;
    const year = Number(m[1]);
    return year >= COMPACT_YEARS.from && year <= COMPACT_YEARS.to ? iso(year, Number(m[2]), Number(m[3])) : undefined;
  }
  const m = SEPARATED.exec(text);
  if (!m || m[2] !== format[2]) return undefined;
  const [first, second, year] = [Number(m[1]), Number(m[3]), Number(m[4])];
  return format.startsWith('mm') ? iso(year, first, second) : iso(year, second, first);
}

/** What the values of a column say about dates. */
export type DateDetection =
  /** Every value is a date in this format (or already ISO); `typed` counts the values that are not ISO yet. */
  | { readonly kind: 'date'; readonly format: DateFormat; readonly typed: number }
  /** Every value is a date with the day first and with the month first: a person must say which. */
  | { readonly kind: 'ambiguous'; readonly formats: readonly DateFormat[] }
  /** Most values are dates in this format, these are not (the first few; `count` in all). */
  | { readonly kind: 'partial'; readonly format: DateFormat; readonly unmatched: readonly string[]; readonly count: number };

/** Detection stops counting after this many values that fit no format (a text column is told quickly). */
const GIVE_UP_AFTER = 50;
const LISTED = 8;

/**
 * The date format of a column, from its distinct values (dictionary[0] is the missing value). A
 * column is dates when every value fits one format; "partial" when at least half of them fit one
 * (the others are then named); yyyymmdd counts only when every value fits, as codes of 8 digits are
 * common. Undefined for any other column and for a column of ISO dates only, which needs nothing.
 */
export function detectDateFormat(dictionary: readonly string[]): DateDetection | undefined {
  const candidates = DATE_FORMATS.filter((f) => f !== 'yyyy-mm-dd');
  const fits = new Map<DateFormat, number>(candidates.map((f) => [f, 0]));
  let typed = 0;
  let values = 0;
  let fitNone = 0;
  for (let code = 1; code < dictionary.length; code++) {
    const value = dictionary[code]!;
    values++;
    if (ISO_DATE.test(value.trim())) continue;
    typed++;
    let any = false;
    for (const format of candidates) {
      if (parseDate(value, format) !== undefined) {
        fits.set(format, fits.get(format)! + 1);
        any = true;
      }
    }
    if (!any && ++fitNone > GIVE_UP_AFTER && fitNone * 2 > values) return undefined;
  }
  if (typed === 0) return undefined;
  const whole = candidates.filter((f) => fits.get(f) === typed);
  if (whole.length === 1) return { kind: 'date', format: whole[0]!, typed };
  if (whole.length > 1) return { kind: 'ambiguous', formats: whole };
  // The format most values fit; of day-first and month-first, day-first on a tie (as most of the world writes).
  const best = candidates.filter((f) => f !== 'yyyymmdd').reduce((a, b) => (fits.get(b)! > fits.get(a)! ? b : a));
  const fitting = fits.get(best)!;
  if (fitting === 0 || 2 * (fitting + values - typed) < values) return undefined;
  const unmatched: string[] = [];
  let count = 0;
  for (let code = 1; code < dictionary.length; code++) {
    if (parseDate(dictionary[code]!, best) !== undefined) continue;
    count++;
    if (unmatched.length < LISTED) unmatched.push(dictionary[code]!);
  }
  return { kind: 'partial', format: best, unmatched, count };
}

/** The formats of an ambiguous column, as the person is asked: "dd/mm/yyyy (day first) or mm/dd/yyyy (month first)". */
export function describeFormats(formats: readonly DateFormat[]): string {
  return formats.map((f) => `"${f}"${f === SWAPPED[0] ? ' (day first)' : f === SWAPPED[1] ? ' (month first)' : ''}`).join(' or ');
}
