/**
 * Dates and date-times of statistical files as ISO 8601 text, with every fraction of a second the
 * file holds. SPSS, Stata and SAS store a date-time as a double (seconds, or Stata's milliseconds,
 * from their epochs); the text is the shortest decimal that reads back to that double, so
 * 12:00:00.5 and 12:00:00 stay two values and 12:00:00.1 is not written as 12:00:00.1000003814.
 * Parquet's integer timestamps use `fraction` and `floorDiv` the same way (parquet-values.ts).
 */

export const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/** A fraction of a second as ".123" with trailing zeros dropped, or nothing when it is zero. */
export function fraction(units: bigint, digits: number): string {
  if (units === 0n) return '';
  return `.${units.toString().padStart(digits, '0').replace(/0+$/, '')}`;
}

/** A finite double as the exact decimal of its shortest round-trip digits: `units` × 10^-`scale`, scale ≥ 0. */
export function shortestDecimal(value: number): { units: bigint; scale: number } {
  // toExponential() without digits gives as many as it takes to tell the double from every other.
  const [mantissa = '0', exponent = '0'] = value.toExponential().split('e');
  const digits = mantissa.replace('-', '').replace('.', '');
  const power = Number(exponent) - (digits.length - 1);
  const magnitude = power >= 0 ? BigInt(digits) * 10n ** BigInt(power) : BigInt(digits);
  return { units: value < 0 ? -magnitude : magnitude, scale: Math.max(0, -power) };
}

/** `units` × 10^-`scale` seconds from the Unix epoch as date-time text ("2024-05-01T12:00:00.5"); undefined past what a Date can hold. */
export function isoDateTimeOfSeconds(units: bigint, scale: number): string | undefined {
  const perSecond = 10n ** BigInt(scale);
  const whole = floorDiv(units, perSecond);
  const date = new Date(Number(whole) * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  // slice(0, -5) drops ".000Z" and keeps ISO's expanded years (+010000-01-01T…) whole.
  return date.toISOString().slice(0, -5) + fraction(units - whole * perSecond, scale);
}

/** An instant in milliseconds from the Unix epoch as an ISO date (years past 9999 in ISO's expanded form); undefined past what a Date can hold. */
export function isoDateOfMilliseconds(ms: number): string | undefined {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  return iso.slice(0, iso.indexOf('T'));
}

/**
 * How a file counts time: in seconds (`unitDigits` 0, SPSS and SAS) or milliseconds (3, Stata's
 * %tc), from an epoch `epochSeconds` before the Unix epoch (negative: after it).
 */
export interface TimeCount {
  readonly unitDigits: 0 | 3;
  readonly epochSeconds: number;
}

/** SPSS counts dates and date-times in seconds from 14 October 1582. */
export const SPSS_CLOCK: TimeCount = { unitDigits: 0, epochSeconds: 12_219_379_200 };
/** Stata counts %tc date-times in milliseconds from 1 January 1960. */
export const STATA_CLOCK: TimeCount = { unitDigits: 3, epochSeconds: 3653 * 86_400 };
/** SAS counts date-times in seconds from 1 January 1960. */
export const SAS_CLOCK: TimeCount = { unitDigits: 0, epochSeconds: 3653 * 86_400 };

/** A date-time count as ISO text with the fraction its double holds; undefined when no calendar date is that value. */
export function dateTimeText(count: number, clock: TimeCount): string | undefined {
  if (!Number.isFinite(count)) return undefined;
  const { units, scale } = shortestDecimal(count);
  // units × 10^-scale of the file's unit, from the file's epoch → units × 10^-(scale + unitDigits) seconds from 1970.
  const secondsScale = scale + clock.unitDigits;
  return isoDateTimeOfSeconds(units - BigInt(clock.epochSeconds) * 10n ** BigInt(secondsScale), secondsScale);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/;

/**
 * The count (the double a writer stores) whose dateTimeText is exactly `text`, or undefined when
 * there is none: not an ISO date-time of a real calendar day, or a fraction finer than a double of
 * that size holds (the writer then keeps the text, never a rounded instant).
 */
export function dateTimeCount(text: string, clock: TimeCount): number | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [y, mo, d, h, mi, s, digits = ''] = match.slice(1) as [string, string, string, string, string, string, string | undefined];
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Only real calendar dates and times (2021-02-30 is text), and no two-digit years Date.UTC would move to 19xx.
  if (Number.isNaN(ms) || !new Date(ms).toISOString().startsWith(`${y}-${mo}-${d}T${h}:${mi}:${s}`)) return undefined;
  const scale = digits.length;
  const seconds = (BigInt(ms / 1000) + BigInt(clock.epochSeconds)) * 10n ** BigInt(scale) + (digits === '' ? 0n : BigInt(digits));
  const count = Number(decimalOf(seconds, scale - clock.unitDigits));
  return dateTimeText(count, clock) === text ? count : undefined;
}

/** `units` × 10^-scale as decimal text (a negative scale multiplies). */
function decimalOf(units: bigint, scale: number): string {
  if (scale <= 0) return (units * 10n ** BigInt(-scale)).toString();
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * A count of days from an epoch `epochDays` before the Unix epoch (Stata's %td, SAS dates) as an
 * ISO date; a count with a fraction of a day (a date format over a date-time) as the date-time it
 * holds, so that two values on one day stay two. Undefined when no calendar date is that value.
 */
export function dayText(days: number, epochDays: number): string | undefined {
  if (!Number.isFinite(days)) return undefined;
  if (Number.isInteger(days)) return isoDateOfMilliseconds((days - epochDays) * 86_400_000);
  const { units, scale } = shortestDecimal(days);
  return isoDateTimeOfSeconds((units - BigInt(epochDays) * 10n ** BigInt(scale)) * 86_400n, scale);
}
