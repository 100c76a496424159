import { dateTimeCount, STATA_CLOCK } from '../input/date-time-text.js';
import type { VariableMetadata } from '../input/import-types.js';
import { HashedFileWriter } from './hashed-file.js';
import { codeBlocks, writeRowCells, type ReleaseColumn, type CompactTable } from './release-table.js';
import { stataVariableNames } from './stata-names.js';
import { canonicalNumber, float64LE, int32LE, isoMilliseconds, labelCodes, MONTH_ABBREVIATIONS, truncateUtf8 } from './statistical-values.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * A Stata data file (.dta, format 118: Stata 14 and later, UTF-8) of a released table, as Stata's
 * "dta file format" describes it, so a custodian's do-files keep working on the release. As the
 * SPSS writer does, a column keeps the input's form where every released value allows it: integer
 * codes with the value labels of the released values only, %td dates and %tc date-times, plain
 * numbers (as doubles) when each reads back as the same text; anything else is a string.
 */
export class DtaStringTooLongError extends Error {
  constructor(readonly column: string, readonly bytes: number) {
    super(`column "${column}" holds values of ${formatCount(bytes)} bytes; a Stata strL holds at most ${formatCount(MAX_STRL_BYTES)} bytes. Write CSV for it`);
  }
}

export class DtaTooWideError extends Error {
  constructor(readonly columns: number) {
    super(`the release has ${formatCount(columns)} columns; a Stata file holds at most ${formatCount(MAX_VARIABLES)}. Write CSV for it`);
  }
}

/** The longest str#; longer text is a strL, stored once per distinct value after the data. */
const MAX_STRING_BYTES = 2045;
const MAX_STRL_BYTES = 2_000_000_000;
const TYPE_STRL = 32768;
/** A strL's content type: text with a terminating NUL. */
const GSO_TEXT = 130;
const MAX_VARIABLES = 32_767;
const TYPE_DOUBLE = 65526;
const TYPE_LONG = 65528;
/** Stata's system missing "." for doubles, 2^1023, and for longs. */
const DOUBLE_MISSING = Buffer.from([0, 0, 0, 0, 0, 0, 0xe0, 0x7f]);
const LONG_MISSING = 2_147_483_621;
const LONG_MAX = 2_147_483_620;
const LONG_MIN = -2_147_483_647;
/** Days from Stata's epoch (1960-01-01) to the Unix epoch. */
const STATA_EPOCH_DAYS = 3653;
const DAY_MS = 86_400_000;

type Plan =
  | { readonly kind: 'double'; readonly format: string; readonly values: readonly Buffer[] }
  | { readonly kind: 'labelled'; readonly values: readonly Buffer[]; readonly labels: readonly (readonly [number, string])[] }
  | { readonly kind: 'string'; readonly width: number; readonly values: readonly Buffer[] }
  /** Each cell names the (variable, observation) of the GSO holding its value: the value's first observation. */
  | { readonly kind: 'strl'; readonly values: readonly Buffer[]; readonly gsos: Buffer };

export function writeDta(path: string, table: CompactTable, metadataOf: (column: string) => VariableMetadata | undefined, created: Date): { sha256: string; bytes: number } {
  const k = table.columns.length;
  if (k > MAX_VARIABLES) throw new DtaTooWideError(k);
  const names = stataVariableNames(table.columns.map((c) => c.name));
  const plans = table.columns.map((c, j) => planOf(c, metadataOf(c.name), j + 1, table.rowCount));
  const labels = table.columns.map((c, j) => {
    const label = metadataOf(c.name)?.label ?? (names[j] !== c.name ? c.name : '');
    return truncateUtf8(label, 320);
  });

  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const put = (b: Buffer): void => {
    parts.push(b);
    size += b.length;
  };
  const tag = (text: string): void => put(Buffer.from(text, 'latin1'));
  const mark = (): void => void offsets.push(size);

  mark(); // <stata_dta>
  tag('<stata_dta><header><release>118</release><byteorder>LSF</byteorder><K>');
  put(u16(k));
  tag('</K><N>');
  put(u64(table.rowCount));
  tag('</N><label>');
  put(u16(0));
  tag('</label><timestamp>');
  const stamp = timestamp(created);
  put(Buffer.from([stamp.length]));
  tag(stamp);
  tag('</timestamp></header>');
  mark(); // <map>
  tag('<map>');
  put(Buffer.alloc(14 * 8));
  tag('</map>');
  mark();
  tag('<variable_types>');
  for (const p of plans) put(u16(p.kind === 'string' ? p.width : p.kind === 'strl' ? TYPE_STRL : p.kind === 'labelled' ? TYPE_LONG : TYPE_DOUBLE));
  tag('</variable_types>');
  mark();
  tag('<varnames>');
  for (const name of names) put(fixed(name, 129));
  tag('</varnames>');
  mark();
  tag('<sortlist>');
  put(Buffer.alloc((k + 1) * 2));
  tag('</sortlist>');
  mark();
  tag('<formats>');
  for (const p of plans) put(fixed(p.kind === 'string' ? `%${Math.min(p.width, 244)}s` : p.kind === 'strl' ? '%9s' : p.kind === 'labelled' ? '%12.0g' : p.format, 57));
  tag('</formats>');
  mark();
  tag('<value_label_names>');
  plans.forEach((p, j) => put(fixed(p.kind === 'labelled' && p.labels.length > 0 ? names[j]! : '', 129)));
  tag('</value_label_names>');
  mark();
  tag('<variable_labels>');
  for (const label of labels) put(fixed(label, 321));
  tag('</variable_labels>');
  mark();
  tag('<characteristics></characteristics>');
  mark(); // <data>
  const header = Buffer.concat(parts);
  parts.length = 0;
  const dataStart = size;

  const out = new HashedFileWriter(path);
  // The map needs the data's size, known before writing: every record has the same length.
  const recordBytes = plans.reduce((sum, p) => sum + (p.kind === 'string' ? p.width : p.kind === 'labelled' ? 4 : 8), 0);
  const dataEnd = dataStart + '<data>'.length + recordBytes * table.rowCount + '</data>'.length;
  const trailer = trailerParts(plans, names);
  const strls = Buffer.concat([Buffer.from('<strls>', 'latin1'), ...plans.flatMap((p) => (p.kind === 'strl' ? [p.gsos] : [])), Buffer.from('</strls>', 'latin1')]);
  const strlsAt = dataEnd;
  const valueLabelsAt = strlsAt + strls.length;
  const endTagAt = valueLabelsAt + trailer.length;
  const fileEnd = endTagAt + '</stata_dta>'.length;
  const map = [...offsets, strlsAt, valueLabelsAt, endTagAt, fileEnd];
  const mapStart = offsets[1]! + '<map>'.length;
  out.write(header.subarray(0, mapStart));
  out.write(Buffer.concat(map.map(u64)));
  out.write(header.subarray(mapStart + 14 * 8));

  out.write(Buffer.from('<data>', 'latin1'));
  const cells = plans.map((p) => p.values);
  writeRowCells(out, table, cells);
  out.write(Buffer.from('</data>', 'latin1'));
  out.write(strls);
  out.write(trailer);
  out.write(Buffer.from('</stata_dta>', 'latin1'));
  return out.close();
}

function planOf(column: ReleaseColumn, metadata: VariableMetadata | undefined, variable: number, rows: number): Plan {
  const values = column.dictionary;
  const present = values.filter((v) => v !== '');
  if (metadata?.dates) {
    const stata = present.map((v) => stataDate(v, metadata.dates!));
    if (stata.every((s) => s !== undefined)) {
      return { kind: 'double', format: metadata.dates === 'date' ? '%td' : '%tc', values: values.map((v) => (v === '' ? DOUBLE_MISSING : float64LE(stataDate(v, metadata.dates!)!))) };
    }
  }
  // Stata labels integer codes a long holds.
  const codes = labelCodes(metadata, (n) => Number.isInteger(n) && n >= LONG_MIN && n <= LONG_MAX);
  if (codes && present.length > 0 && present.every((v) => codes.has(v))) {
    const released = [...new Set(present)].map((v) => [codes.get(v)!, v] as const).sort((a, b) => a[0] - b[0]);
    return { kind: 'labelled', values: values.map((v) => int32LE(v === '' ? LONG_MISSING : codes.get(v)!)), labels: released };
  }
  if (column.numeric && present.every(canonicalNumber)) {
    return { kind: 'double', format: '%12.0g', values: values.map((v) => (v === '' ? DOUBLE_MISSING : float64LE(Number(v)))) };
  }
  const encoded = values.map((v) => Buffer.from(v, 'utf8'));
  const width = Math.max(1, ...encoded.map((b) => b.length));
  if (width > MAX_STRL_BYTES) throw new DtaStringTooLongError(column.name, width);
  if (width > MAX_STRING_BYTES) return strlPlan(column, encoded, variable, rows);
  return { kind: 'string', width, values: encoded.map((b) => Buffer.concat([b, Buffer.alloc(width - b.length)])) };
}

/**
 * A strL column as Stata stores one: each distinct value once, as a GSO keyed by the variable and
 * the first observation holding it (in that order, as Stata writes them), every cell naming its
 * value's key (release 118: 2 bytes of variable, 6 of observation); an empty value is the key (0, 0).
 */
function strlPlan(column: ReleaseColumn, encoded: readonly Buffer[], variable: number, rows: number): Plan {
  const first = new Float64Array(encoded.length);
  for (const block of codeBlocks({ rowCount: rows, columns: [column] })) {
    const codes = block.codes[0]!;
    for (let i = 0; i < block.count; i++) if (first[codes[i]!] === 0) first[codes[i]!] = block.start + i + 1;
  }
  const key = (code: number): Buffer => {
    const b = Buffer.alloc(8);
    if (encoded[code]!.length === 0 || first[code] === 0) return b;
    b.writeUInt16LE(variable, 0);
    b.writeUIntLE(first[code]!, 2, 6);
    return b;
  };
  const stored = encoded
    .map((bytes, code) => ({ bytes, observation: first[code]! }))
    .filter((g) => g.bytes.length > 0 && g.observation > 0)
    .sort((a, b) => a.observation - b.observation);
  const gsos = Buffer.concat(
    stored.flatMap(({ bytes, observation }) => [Buffer.from('GSO', 'latin1'), int32LE(variable), u64(observation), Buffer.from([GSO_TEXT]), int32LE(bytes.length + 1), bytes, Buffer.alloc(1)]),
  );
  return { kind: 'strl', values: encoded.map((_, code) => key(code)), gsos };
}

/** A %td day or %tc millisecond count; a date-time's fraction of a second is kept exactly as written or the value is undefined (the column stays text), never rounded. */
function stataDate(value: string, kind: 'date' | 'datetime'): number | undefined {
  if (kind === 'datetime') return dateTimeCount(value, STATA_CLOCK);
  const ms = isoMilliseconds(value, kind);
  if (ms === undefined) return undefined;
  return kind === 'date' ? ms / DAY_MS + STATA_EPOCH_DAYS : ms + STATA_EPOCH_DAYS * DAY_MS;
}

/** The <value_labels> section: one label set per labelled variable, named after it. */
function trailerParts(plans: readonly Plan[], names: readonly string[]): Buffer {
  const parts: Buffer[] = [Buffer.from('<value_labels>', 'latin1')];
  plans.forEach((p, j) => {
    if (p.kind !== 'labelled' || p.labels.length === 0) return;
    const texts = p.labels.map(([, label]) => Buffer.concat([Buffer.from(truncateUtf8(label, 32_000), 'utf8'), Buffer.alloc(1)]));
    const offsets: number[] = [];
    let at = 0;
    for (const t of texts) {
      offsets.push(at);
      at += t.length;
    }
    const table = Buffer.concat([int32LE(p.labels.length), int32LE(at), ...offsets.map(int32LE), ...p.labels.map(([code]) => int32LE(code)), ...texts]);
    parts.push(Buffer.from('<lbl>', 'latin1'), int32LE(table.length), fixed(names[j]!, 129), Buffer.alloc(3), table, Buffer.from('</lbl>', 'latin1'));
  });
  parts.push(Buffer.from('</value_labels>', 'latin1'));
  return Buffer.concat(parts);
}

function timestamp(created: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(created.getUTCDate())} ${MONTH_ABBREVIATIONS[created.getUTCMonth()]} ${created.getUTCFullYear()} ${two(created.getUTCHours())}:${two(created.getUTCMinutes())}`;
}

/** UTF-8 text in a fixed, NUL-padded field (at most size − 1 bytes, never cutting a character). */
function fixed(text: string, size: number): Buffer {
  const b = Buffer.alloc(size);
  Buffer.from(truncateUtf8(text, size - 1), 'utf8').copy(b);
  return b;
}


function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}


