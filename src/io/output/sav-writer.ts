import { dateTimeCount, SPSS_CLOCK } from '../input/date-time-text.js';
import type { VariableMetadata } from '../input/import-types.js';
import { HashedFileWriter } from './hashed-file.js';
import { writeRowCells, type ReleaseColumn, type CompactTable } from './release-table.js';
import { canonicalNumber, float64LE, int32LE, isoMilliseconds, labelCodes, MONTH_ABBREVIATIONS, truncateUtf8 } from './statistical-values.js';
import { spssVariableNames } from './spss-names.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * An SPSS system file (.sav, uncompressed, UTF-8) of a released table, as PSPP's "System File
 * Format" describes it, so a custodian's SPSS syntax keeps working on the release. A column comes
 * back in the form the input had where every released value allows it: labelled codes (the value
 * labels of the released values only: a label no released record carries would tell something of
 * the input), dates and date-times, plain numbers; anything else is a string.
 */
export class SavStringTooLongError extends Error {
  constructor(readonly column: string, readonly bytes: number) {
    super(`column "${column}" holds values of ${formatCount(bytes)} bytes; an SPSS file holds strings up to ${formatCount(MAX_STRING_BYTES)} bytes. Write CSV or XLSX for it`);
  }
}

/** SPSS's longest string; one above 255 bytes is a "very long string" stored in segments. */
const MAX_STRING_BYTES = 32767;
/** The widest segment, and the bytes each segment but the last accounts for in the segment count (PSPP's sfm_width_to_segments). */
const SEGMENT_WIDTH = 255;
const SEGMENT_STEP = 252;
const SYSMIS = -Number.MAX_VALUE;
/** Seconds from SPSS's epoch (1582-10-14) to the Unix epoch. */
const SPSS_EPOCH_TO_UNIX = 12_219_379_200;
const FORMAT_F = 5;
const FORMAT_A = 1;
const FORMAT_DATE = 20;
const FORMAT_DATETIME = 22;
const MAX_LABEL_BYTES = 255;

type Plan =
  | { readonly kind: 'number'; readonly format: number; readonly values: readonly number[] }
  | { readonly kind: 'labelled'; readonly format: number; readonly values: readonly number[]; readonly labels: readonly (readonly [number, string])[] }
  | { readonly kind: 'string'; readonly width: number; readonly values: readonly Buffer[] };

interface Variable {
  readonly name: string;
  readonly label: string | undefined;
  readonly plan: Plan;
  /** The string widths of its segments: one for a number or a string up to 255 bytes, more for a very long string. */
  readonly widths: readonly number[];
  /** 8-byte elements a case holds for it (its dictionary records). */
  readonly segments: number;
  /** 1-based index of its first dictionary record. */
  readonly index: number;
}

/** A very long string's segments as PSPP writes them: 255 bytes wide but the last, which takes the rest of width − 252 per segment. */
function segmentWidths(width: number): number[] {
  if (width <= SEGMENT_WIDTH) return [width];
  const count = Math.ceil(width / SEGMENT_STEP);
  return [...Array.from({ length: count - 1 }, () => SEGMENT_WIDTH), width - SEGMENT_STEP * (count - 1)];
}

const elementsOf = (width: number): number => Math.ceil(width / 8);

export function writeSav(path: string, table: CompactTable, metadataOf: (column: string) => VariableMetadata | undefined, created: Date): { sha256: string; bytes: number } {
  const names = spssVariableNames(table.columns.map((c) => c.name));
  let index = 1;
  const variables: Variable[] = table.columns.map((column, j) => {
    const metadata = metadataOf(column.name);
    const plan = planOf(column, metadata);
    const widths = plan.kind === 'string' ? segmentWidths(plan.width) : [0];
    const segments = widths.reduce((sum, w) => sum + Math.max(1, elementsOf(w)), 0);
    const renamed = names[j] !== column.name;
    const label = metadata?.label ?? (renamed ? column.name : undefined);
    const variable = { name: names[j]!, label, plan, widths, segments, index };
    index += segments;
    return variable;
  });
  const out = new HashedFileWriter(path);
  const record = new Record();
  header(record, variables, table.rowCount, created);
  // Short names: V1…Vk for the variables, then on for the further segments of very long strings, all distinct.
  let nextShort = variables.length + 1;
  const shortNames = variables.map((v, j) => [`V${j + 1}`, ...v.widths.slice(1).map(() => `V${nextShort++}`)]);
  variables.forEach((v, j) => variableRecords(record, v, shortNames[j]!));
  for (const v of variables) if (v.plan.kind === 'labelled' && v.plan.labels.length > 0) valueLabelRecords(record, v.plan.labels, v.index);
  integerInfo(record);
  floatInfo(record);
  textRecord(record, 13, variables.map((v, j) => `V${j + 1}=${v.name}`).join('\t'));
  const veryLong = variables.flatMap((v, j) => (v.widths.length > 1 && v.plan.kind === 'string' ? [`V${j + 1}=${String(v.plan.width).padStart(5, '0')}\0\t`] : []));
  if (veryLong.length > 0) textRecord(record, 14, veryLong.join(''));
  textRecord(record, 20, 'UTF-8');
  record.int(999).int(0);
  out.write(record.take());

  const cells = variables.map((v) => (v.plan.kind === 'string' ? v.plan.values : v.plan.values.map(float64LE)));
  writeRowCells(out, table, cells);
  return out.close();
}

function planOf(column: ReleaseColumn, metadata: VariableMetadata | undefined): Plan {
  const values = column.dictionary;
  const present = values.filter((v) => v !== '');
  if (metadata?.dates) {
    const seconds = present.map((v) => spssSeconds(v, metadata.dates!));
    if (seconds.every((s) => s !== undefined)) {
      const format = metadata.dates === 'date' ? packFormat(FORMAT_DATE, 11, 0) : dateTimeFormat(present);
      return { kind: 'number', format, values: values.map((v) => (v === '' ? SYSMIS : spssSeconds(v, metadata.dates!)!)) };
    }
  }
  const codes = labelCodes(metadata, () => true);
  if (codes && present.length > 0 && present.every((v) => codes.has(v))) {
    const released = [...new Set(present)].map((v) => [codes.get(v)!, truncateUtf8(v, MAX_LABEL_BYTES)] as const).sort((a, b) => a[0] - b[0]);
    return { kind: 'labelled', format: numberFormat(released.map(([code]) => String(code))), values: values.map((v) => (v === '' ? SYSMIS : codes.get(v)!)), labels: released };
  }
  if (column.numeric && present.every(canonicalNumber)) {
    return { kind: 'number', format: numberFormat(present), values: values.map((v) => (v === '' ? SYSMIS : Number(v))) };
  }
  const encoded = values.map((v) => Buffer.from(v, 'utf8'));
  const width = Math.max(1, ...encoded.map((b) => b.length));
  if (width > MAX_STRING_BYTES) throw new SavStringTooLongError(column.name, width);
  const widths = segmentWidths(width);
  // Each segment holds the next 255 bytes (the last what remains), padded with blanks to its elements.
  const cell = (b: Buffer): Buffer =>
    Buffer.concat(
      widths.map((w, s) => {
        const part = b.subarray(s * SEGMENT_WIDTH, Math.min(b.length, (s + 1) * SEGMENT_WIDTH));
        return Buffer.concat([part, Buffer.alloc(elementsOf(w) * 8 - part.length, 0x20)]);
      }),
    );
  return { kind: 'string', width, values: encoded.map(cell) };
}

/**
 * Seconds from SPSS's epoch of an ISO date or date-time, undefined for other text. A date-time's
 * fraction of a second is kept exactly as written, or the value is undefined (and the column stays
 * text): the double stored must read back as the same text, never as a rounded instant.
 */
function spssSeconds(value: string, kind: 'date' | 'datetime'): number | undefined {
  if (kind === 'datetime') return dateTimeCount(value, SPSS_CLOCK);
  const ms = isoMilliseconds(value, kind);
  return ms === undefined ? undefined : ms / 1000 + SPSS_EPOCH_TO_UNIX;
}

/** DATETIME20 (dd-mmm-yyyy hh:mm:ss), with as many decimals of a second as the most precise value shows (at most 16). */
function dateTimeFormat(values: readonly string[]): number {
  const decimals = Math.min(16, Math.max(0, ...values.map((v) => (v.includes('.') ? v.length - v.indexOf('.') - 1 : 0))));
  return packFormat(FORMAT_DATETIME, decimals > 0 ? 21 + decimals : 20, decimals);
}

/** F w.d wide enough for every value, with as many decimals as the most precise one (at most 16). */
function numberFormat(values: readonly string[]): number {
  let decimals = 0;
  let width = 8;
  for (const v of values) {
    const text = String(Number(v));
    const point = text.indexOf('.');
    if (!text.includes('e') && point >= 0) decimals = Math.max(decimals, text.length - point - 1);
    width = Math.max(width, text.length);
  }
  decimals = Math.min(decimals, 16);
  return packFormat(FORMAT_F, Math.min(40, Math.max(width, decimals + 2)), decimals);
}

function packFormat(type: number, width: number, decimals: number): number {
  return (type << 16) | (width << 8) | decimals;
}

function header(r: Record, variables: readonly Variable[], rows: number, created: Date): void {
  r.text('$FL2', 4).text('@(#) SPSS DATA FILE Custos release', 60);
  r.int(2);
  r.int(variables.reduce((sum, v) => sum + v.segments, 0));
  r.int(0); // not compressed
  r.int(0); // no case weight: records are not weighted
  r.int(rows <= 0x7fffffff ? rows : -1);
  r.double(100);
  const two = (n: number): string => String(n).padStart(2, '0');
  r.text(`${two(created.getUTCDate())} ${MONTH_ABBREVIATIONS[created.getUTCMonth()]} ${two(created.getUTCFullYear() % 100)}`, 9);
  r.text(`${two(created.getUTCHours())}:${two(created.getUTCMinutes())}:${two(created.getUTCSeconds())}`, 8);
  r.text('', 64);
  r.bytes(Buffer.alloc(3));
}

/** One variable record per segment (the label on the first), each followed by the continuation records of its further 8-byte elements. */
function variableRecords(r: Record, v: Variable, shortNames: readonly string[]): void {
  v.widths.forEach((width, s) => {
    const type = v.plan.kind === 'string' ? width : 0;
    const format = v.plan.kind === 'string' ? packFormat(FORMAT_A, width, 0) : v.plan.format;
    const label = s === 0 ? v.label : undefined;
    r.int(2).int(type).int(label === undefined ? 0 : 1).int(0).int(format).int(format).text(shortNames[s]!, 8);
    if (label !== undefined) {
      const bytes = Buffer.from(truncateUtf8(label, MAX_LABEL_BYTES), 'utf8');
      r.int(bytes.length).bytes(bytes).bytes(Buffer.alloc((4 - (bytes.length % 4)) % 4, 0x20));
    }
    for (let e = 1; e < elementsOf(width); e++) r.int(2).int(-1).int(0).int(0).int(0).int(0).text('', 8);
  });
}

function valueLabelRecords(r: Record, labels: readonly (readonly [number, string])[], index: number): void {
  r.int(3).int(labels.length);
  for (const [code, text] of labels) {
    const label = Buffer.from(text, 'utf8');
    r.double(code).bytes(Buffer.from([label.length])).bytes(label);
    r.bytes(Buffer.alloc((8 - ((label.length + 1) % 8)) % 8, 0x20));
  }
  r.int(4).int(1).int(index);
}

function integerInfo(r: Record): void {
  // Version 1.0.0, machine code -1 (unspecified), IEEE 754 doubles, compression code 1, little-endian, code page 65001 (UTF-8).
  r.int(7).int(3).int(4).int(8);
  for (const value of [1, 0, 0, -1, 1, 1, 2, 65001]) r.int(value);
}

function floatInfo(r: Record): void {
  const lowest = Buffer.from([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0xff]); // the negative double after -DBL_MAX
  r.int(7).int(4).int(8).int(3).double(SYSMIS).double(Number.MAX_VALUE).bytes(lowest);
}

function textRecord(r: Record, subtype: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  r.int(7).int(subtype).int(1).int(bytes.length).bytes(bytes);
}

/** The dictionary's little-endian fields, gathered before they are written. */
class Record {
  private parts: Buffer[] = [];
  int(value: number): this {
    this.parts.push(int32LE(value));
    return this;
  }
  double(value: number): this {
    this.parts.push(float64LE(value));
    return this;
  }
  /** Text in a fixed field, padded with spaces (ASCII only: the header's fields). */
  text(value: string, size: number): this {
    const b = Buffer.alloc(size, 0x20);
    b.write(value.slice(0, size), 'latin1');
    this.parts.push(b);
    return this;
  }
  bytes(value: Uint8Array): this {
    this.parts.push(Buffer.from(value));
    return this;
  }
  take(): Buffer {
    const all = Buffer.concat(this.parts);
    this.parts = [];
    return all;
  }
}
