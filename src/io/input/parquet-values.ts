import type { SchemaElement } from 'hyparquet';
import { floorDiv, fraction } from './date-time-text.js';

/**
 * The text of a Parquet column's values, from the physical values hyparquet's page decoders
 * return (numbers, BigInts, booleans, byte arrays) and the column's logical or converted type.
 * Values are written exactly: 64-bit integers and decimals from their integers (never through a
 * double), timestamps from their integer count of units, so nothing a file holds is rounded.
 */
export interface ValueText {
  readonly text: (value: unknown) => string;
  /** Set for columns read as ISO dates or date-times (VariableMetadata.dates). */
  readonly dates?: 'date' | 'datetime';
}

/** A column whose type Custos does not read; the reader names the column. */
export class UnsupportedTypeError extends Error {}

type Unit = 'MILLIS' | 'MICROS' | 'NANOS';

const UNITS_PER_SECOND: Record<Unit, bigint> = { MILLIS: 1_000n, MICROS: 1_000_000n, NANOS: 1_000_000_000n };
const DIGITS: Record<Unit, number> = { MILLIS: 3, MICROS: 6, NANOS: 9 };

/** Julian day of the Unix epoch, for INT96 timestamps (Impala, Spark). */
const JULIAN_EPOCH_DAY = 2_440_588n;
const NANOS_PER_DAY = 86_400_000_000_000n;

/** A value's leading U+FEFF is part of it, not a byte order mark. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class NotUtf8Error extends Error {}

function utf8(value: unknown): string {
  try {
    return strictUtf8.decode(value as Uint8Array);
  } catch {
    throw new NotUtf8Error('not UTF-8');
  }
}

/** An unscaled integer and a scale as exact decimal text: 12345, 2 → "123.45"; the scale's digits are kept ("1.50"). */
export function decimalText(unscaled: bigint | number, scale: number): string {
  if (scale <= 0) return (scale === 0 ? unscaled : BigInt(unscaled) * 10n ** BigInt(-scale)).toString();
  const negative = unscaled < 0;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** A big-endian two's-complement integer (Parquet's DECIMAL in byte arrays); a Number while it is exact (6 bytes). */
function bigEndianSigned(bytes: Uint8Array): bigint | number {
  if (bytes.length <= 6) {
    let value = 0;
    for (let i = 0; i < bytes.length; i++) value = value * 256 + bytes[i]!;
    return bytes.length > 0 && bytes[0]! & 0x80 ? value - 2 ** (bytes.length * 8) : value;
  }
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return bytes[0]! & 0x80 ? value - (1n << BigInt(bytes.length * 8)) : value;
}


/**
 * A count of units since 1970-01-01T00:00:00 as ISO 8601 date-time text (no zone: a UTC-adjusted
 * instant is written in UTC, a local one as it was stored). Undefined past what a Date can hold.
 */
export function timestampText(count: bigint, unit: Unit): string | undefined {
  const perSecond = UNITS_PER_SECOND[unit];
  const seconds = floorDiv(count, perSecond);
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toISOString().slice(0, -5) + fraction(count - seconds * perSecond, DIGITS[unit]);
}

/** Days since 1970-01-01 as an ISO date (years past 9999 in ISO's expanded form, +275760-09-13); undefined past what a Date can hold. */
export function dateText(days: number): string | undefined {
  const date = new Date(days * 86_400_000);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  return iso.slice(0, iso.indexOf('T'));
}

/** A time of day ("13:45:00.25") from units since midnight. */
function timeText(count: bigint, unit: Unit): string {
  const perSecond = UNITS_PER_SECOND[unit];
  const seconds = floorDiv(count, perSecond);
  const two = (n: bigint): string => n.toString().padStart(2, '0');
  return `${two(seconds / 3600n)}:${two((seconds / 60n) % 60n)}:${two(seconds % 60n)}${fraction(count - seconds * perSecond, DIGITS[unit])}`;
}

/** A float as the shortest decimal that reads back to the same float (0.1, not 0.10000000149). */
export function floatText(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  for (let digits = 1; digits <= 9; digits++) {
    const text = Number(v.toPrecision(digits));
    if (Math.fround(text) === v) return String(text);
  }
  return String(v);
}

/** IEEE half precision, little-endian (Parquet's FLOAT16 logical type). */
function float16(bytes: Uint8Array): number {
  const bits = (bytes[1]! << 8) | bytes[0]!;
  const sign = bits >> 15 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (mantissa / 1024);
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + mantissa / 1024);
}

const asBigInt = (value: unknown): bigint => (typeof value === 'bigint' ? value : BigInt(value as number));

/** Exact integer-with-scale reading of whichever physical type holds a DECIMAL. */
function decimalOf(element: SchemaElement, scale: number): (value: unknown) => string {
  if (element.type === 'INT32') return (v) => decimalText(v as number, scale);
  if (element.type === 'INT64') return (v) => decimalText(v as bigint, scale);
  return (v) => decimalText(bigEndianSigned(v as Uint8Array), scale);
}

function timestampOf(unit: Unit): ValueText {
  return { text: (v) => timestampText(asBigInt(v), unit) ?? asBigInt(v).toString(), dates: 'datetime' };
}

/**
 * How a leaf column's values become text, or an UnsupportedTypeError naming the type. The logical
 * type wins over the older converted type when a writer sets both (they agree when it does).
 */
export function valueTextOf(element: SchemaElement): ValueText {
  const logical = element.logical_type;
  const converted = element.converted_type;
  const type = element.type;
  if (logical?.type === 'DECIMAL' || converted === 'DECIMAL') {
    const scale = logical?.type === 'DECIMAL' ? logical.scale : (element.scale ?? 0);
    return { text: decimalOf(element, scale ?? 0) };
  }
  if (logical?.type === 'DATE' || converted === 'DATE') return { text: (v) => dateText(v as number) ?? String(v), dates: 'date' };
  if (logical?.type === 'TIMESTAMP') return timestampOf(logical.unit);
  if (converted === 'TIMESTAMP_MILLIS') return timestampOf('MILLIS');
  if (converted === 'TIMESTAMP_MICROS') return timestampOf('MICROS');
  if (logical?.type === 'TIME') return { text: (v) => timeText(asBigInt(v), logical.unit) };
  if (converted === 'TIME_MILLIS') return { text: (v) => timeText(asBigInt(v), 'MILLIS') };
  if (converted === 'TIME_MICROS') return { text: (v) => timeText(asBigInt(v), 'MICROS') };
  const unsigned = (logical?.type === 'INTEGER' && !logical.isSigned) || (converted !== undefined && converted.startsWith('UINT_'));
  if (unsigned && type === 'INT32') return { text: (v) => String((v as number) >>> 0) };
  if (unsigned && type === 'INT64') return { text: (v) => BigInt.asUintN(64, v as bigint).toString() };
  if (logical?.type === 'UUID') {
    return { text: (v) => Array.from(v as Uint8Array, (b) => b.toString(16).padStart(2, '0')).join('').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-') };
  }
  if (logical?.type === 'FLOAT16') return { text: (v) => String(float16(v as Uint8Array)) };
  const refused = logical?.type === 'INTERVAL' || converted === 'INTERVAL' ? 'INTERVAL' : logical?.type === 'BSON' || converted === 'BSON' ? 'BSON' : logical && ['VARIANT', 'GEOMETRY', 'GEOGRAPHY', 'MAP', 'LIST'].includes(logical.type) ? logical.type : undefined;
  if (refused) throw new UnsupportedTypeError(`${refused} values`);
  switch (type) {
    case 'BOOLEAN':
      return { text: (v) => (v ? 'true' : 'false') };
    case 'INT32':
    case 'INT64':
      return { text: (v) => String(v) };
    case 'INT96':
      // Julian day in the high 32 bits, nanoseconds of the day in the low 64 (Impala's layout).
      return timestampOf96();
    case 'FLOAT':
      return { text: (v) => floatText(v as number) };
    case 'DOUBLE':
      return { text: (v) => String(v) };
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      return { text: utf8 };
    default:
      throw new UnsupportedTypeError(`physical type ${String(type)}`);
  }
}

function timestampOf96(): ValueText {
  return {
    text: (v) => {
      const value = v as bigint;
      const nanos = (value >> 64n) * NANOS_PER_DAY - JULIAN_EPOCH_DAY * NANOS_PER_DAY + (value & 0xffff_ffff_ffff_ffffn);
      return timestampText(nanos, 'NANOS') ?? nanos.toString();
    },
    dates: 'datetime',
  };
}
