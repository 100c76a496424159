import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { ImportedTable, ImportOptions, VariableMetadata } from './import-types.js';
import { InputError } from './input-error.js';
import { checkHeader, TableBuilder } from './table-builder.js';
import { chunkDecoder } from './text-decoder.js';
import { codePageText } from './code-page-text.js';
import { dateTimeText, dayText, STATA_CLOCK } from './date-time-text.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * Stata data files (.dta), read from Stata's published description of the
 * format ("dta file format", Stata manual [P] file formats .dta): releases 113–115
 * (Stata 8–12) and 117–119 (Stata 13 and later). As for SPSS: value labels
 * become the values people see (codes kept as metadata), Stata's missing values
 * (. and .a–.z) are missing and counted, %td and %tc formats arrive as ISO dates.
 */

type Kind = { readonly kind: 'string'; readonly width: number } | { readonly kind: 'strl' } | { readonly kind: 'number'; readonly type: 'byte' | 'int' | 'long' | 'float' | 'double' };

interface Variable {
  readonly name: string;
  readonly kind: Kind;
  readonly format: string;
  readonly labelSet: string;
  readonly label: string;
}

/** Days and milliseconds from Stata's epoch, 1 January 1960, to the Unix epoch. */
const STATA_EPOCH_DAYS = 3653;

class Reader {
  at = 0;
  constructor(
    readonly bytes: Buffer,
    public little: boolean,
    readonly file: string,
  ) {}
  need(n: number): void {
    if (this.at + n > this.bytes.length) throw new InputError(`the Stata file ends early (at byte ${this.at}); it is truncated or damaged`, this.file);
  }
  u8(): number {
    this.need(1);
    return this.bytes[this.at++]!;
  }
  u16(): number {
    this.need(2);
    const v = this.little ? this.bytes.readUInt16LE(this.at) : this.bytes.readUInt16BE(this.at);
    this.at += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.little ? this.bytes.readUInt32LE(this.at) : this.bytes.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }
  u64(): number {
    this.need(8);
    const v = this.little ? this.bytes.readBigUInt64LE(this.at) : this.bytes.readBigUInt64BE(this.at);
    this.at += 8;
    return Number(v);
  }
  raw(n: number): Buffer {
    this.need(n);
    const v = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  /** A fixed-width, NUL-terminated text field. */
  text(n: number, decode: (b: Buffer) => string): string {
    const b = this.raw(n);
    const end = b.indexOf(0);
    return decode(end < 0 ? b : b.subarray(0, end));
  }
  tag(name: string): void {
    const expected = `<${name}>`;
    const got = this.raw(expected.length).toString('latin1');
    if (got !== expected) throw new InputError(`the Stata file has ${JSON.stringify(got)} where ${expected} belongs; it is damaged`, this.file);
  }
  seek(offset: number): void {
    if (offset > this.bytes.length) throw new InputError('the Stata file is truncated (a section lies past its end)', this.file);
    this.at = offset;
  }
}

export function isStataFile(head: Buffer): boolean {
  if (head.subarray(0, 11).toString('latin1') === '<stata_dta>') return true;
  return head.length >= 4 && head[0]! >= 113 && head[0]! <= 115 && (head[1] === 1 || head[1] === 2) && head[2] === 1;
}

export function readDta(path: string, options: ImportOptions): ImportedTable {
  const name = basename(path);
  const bytes = readFileSync(path);
  const modern = bytes.subarray(0, 11).toString('latin1') === '<stata_dta>';
  const parsed = modern ? readModern(bytes, name) : readOld(bytes, name);
  return toTable(parsed, bytes, name, options);
}

interface Parsed {
  readonly release: number;
  readonly little: boolean;
  readonly variables: Variable[];
  readonly rows: number;
  readonly dataStart: number;
  readonly rowWidth: number;
  readonly labelSets: Map<string, Map<number, string>>;
  readonly strls: Map<string, Buffer>;
  readonly decode: (b: Buffer) => string;
}

function kindOfModern(code: number, file: string): Kind {
  if (code >= 1 && code <= 2045) return { kind: 'string', width: code };
  if (code === 32768) return { kind: 'strl' };
  const number = ({ 65526: 'double', 65527: 'float', 65528: 'long', 65529: 'int', 65530: 'byte' } as const)[code as 65526];
  if (number) return { kind: 'number', type: number };
  throw new InputError(`unknown Stata variable type ${code}`, file);
}

function kindOfOld(code: number, file: string): Kind {
  if (code >= 1 && code <= 244) return { kind: 'string', width: code };
  const number = ({ 251: 'byte', 252: 'int', 253: 'long', 254: 'float', 255: 'double' } as const)[code as 251];
  if (number) return { kind: 'number', type: number };
  throw new InputError(`unknown Stata variable type ${code}`, file);
}

function widthOf(kind: Kind): number {
  if (kind.kind === 'string') return kind.width;
  if (kind.kind === 'strl') return 8;
  return { byte: 1, int: 2, long: 4, float: 4, double: 8 }[kind.type];
}

function readModern(bytes: Buffer, file: string): Parsed {
  const r = new Reader(bytes, true, file);
  r.tag('stata_dta');
  r.tag('header');
  r.tag('release');
  const release = Number(r.raw(3).toString('latin1'));
  if (release !== 117 && release !== 118 && release !== 119) throw new InputError(`Stata format release ${release} is not one Custos reads (117, 118, 119)`, file);
  r.raw('</release>'.length);
  r.tag('byteorder');
  r.little = r.raw(3).toString('latin1') === 'LSF';
  r.raw('</byteorder>'.length);
  r.tag('K');
  const k = release === 119 ? r.u32() : r.u16();
  r.raw('</K>'.length);
  r.tag('N');
  const n = release === 117 ? r.u32() : r.u64();
  r.raw('</N>'.length);
  r.tag('label');
  const labelLength = release === 117 ? r.u8() : r.u16();
  r.raw(labelLength);
  r.raw('</label>'.length);
  r.tag('timestamp');
  const stampLength = r.u8();
  r.raw(stampLength);
  r.raw('</timestamp>'.length);
  r.raw('</header>'.length);
  r.tag('map');
  const map = Array.from({ length: 14 }, () => r.u64());
  const decode = release === 117 ? codePageText() : utf8Text();
  const nameWidth = release === 117 ? 33 : 129;
  r.seek(map[2]!);
  r.tag('variable_types');
  const kinds = Array.from({ length: k }, () => kindOfModern(r.u16(), file));
  r.seek(map[3]!);
  r.tag('varnames');
  const names = Array.from({ length: k }, () => r.text(nameWidth, decode));
  r.seek(map[5]!);
  r.tag('formats');
  const formats = Array.from({ length: k }, () => r.text(release === 117 ? 49 : 57, decode));
  r.seek(map[6]!);
  r.tag('value_label_names');
  const labelNames = Array.from({ length: k }, () => r.text(nameWidth, decode));
  r.seek(map[7]!);
  r.tag('variable_labels');
  const labels = Array.from({ length: k }, () => r.text(release === 117 ? 81 : 321, decode));
  const variables = names.map((name, j) => ({ name, kind: kinds[j]!, format: formats[j]!, labelSet: labelNames[j]!, label: labels[j]! }));
  const rowWidth = variables.reduce((sum, v) => sum + widthOf(v.kind), 0);
  r.seek(map[9]!);
  r.tag('data');
  const dataStart = r.at;
  // strLs: "GSO", the variable and observation they belong to, a type byte, a length and the bytes.
  const strls = new Map<string, Buffer>();
  r.seek(map[10]!);
  r.tag('strls');
  for (;;) {
    const mark = r.raw(3).toString('latin1');
    if (mark !== 'GSO') break;
    const v = r.u32();
    const o = release === 117 ? r.u32() : r.u64();
    r.u8();
    const length = r.u32();
    const content = r.raw(length);
    strls.set(`${v}:${o}`, content[content.length - 1] === 0 ? content.subarray(0, -1) : content);
  }
  r.seek(map[11]!);
  r.tag('value_labels');
  const labelSets = new Map<string, Map<number, string>>();
  for (;;) {
    const mark = r.raw(5).toString('latin1');
    if (mark !== '<lbl>') break;
    r.u32();
    const setName = r.text(nameWidth, decode);
    r.raw(3);
    labelSets.set(setName, readLabelTable(r, decode, setName));
    r.raw('</lbl>'.length);
  }
  return { release, little: r.little, variables, rows: n, dataStart, rowWidth, labelSets, strls, decode };
}

function readOld(bytes: Buffer, file: string): Parsed {
  const release = bytes[0]!;
  const r = new Reader(bytes, bytes[1] === 2, file);
  r.at = 4;
  const k = r.u16();
  const n = r.u32();
  r.raw(81 + 18);
  const kinds = Array.from({ length: k }, () => kindOfOld(r.u8(), file));
  const decode = codePageText();
  const names = Array.from({ length: k }, () => r.text(33, decode));
  r.raw(2 * (k + 1));
  const formats = Array.from({ length: k }, () => r.text(release === 113 ? 12 : 49, decode));
  const labelNames = Array.from({ length: k }, () => r.text(33, decode));
  const labels = Array.from({ length: k }, () => r.text(81, decode));
  // Expansion fields: a type byte and a length, until both are zero.
  for (;;) {
    const type = r.u8();
    const length = r.u32();
    if (type === 0 && length === 0) break;
    r.raw(length);
  }
  const variables = names.map((name, j) => ({ name, kind: kinds[j]!, format: formats[j]!, labelSet: labelNames[j]!, label: labels[j]! }));
  const rowWidth = variables.reduce((sum, v) => sum + widthOf(v.kind), 0);
  const dataStart = r.at;
  r.seek(dataStart + rowWidth * n);
  const labelSets = new Map<string, Map<number, string>>();
  while (r.at + 4 <= bytes.length) {
    r.u32();
    const setName = r.text(33, decode);
    r.raw(3);
    labelSets.set(setName, readLabelTable(r, decode, setName));
  }
  return { release, little: r.little, variables, rows: n, dataStart, rowWidth, labelSets, strls: new Map(), decode };
}

function utf8Text(): (b: Buffer) => string {
  // A value's leading U+FEFF is part of it, not a byte order mark.
  const decoder = chunkDecoder('utf-8', { keepBom: true });
  return (b) => decoder.decode(b, false);
}

/** A value label table: n entries, their text offsets and values, then the texts. */
function readLabelTable(r: Reader, decode: (b: Buffer) => string, setName: string): Map<number, string> {
  const count = r.u32();
  const textLength = r.u32();
  const offsets = Array.from({ length: count }, () => r.u32());
  const values = Array.from({ length: count }, () => (r.u32() << 0));
  const texts = r.raw(textLength);
  const table = new Map<number, string>();
  // Each text is decoded once, whichever values share it. Texts follow one another, so all of them
  // span no more than the table's text: offsets crafted to overlap (each reaching far for its NUL)
  // had every value decode most of it again, and a 360 KB file took 20 s and 4 GB.
  const byOffset = new Map<number, string>();
  let spanned = 0;
  values.forEach((value, i) => {
    const from = offsets[i]!;
    let text = byOffset.get(from);
    if (text === undefined) {
      const end = texts.indexOf(0, from);
      const to = end < 0 ? texts.length : end;
      spanned += Math.max(0, to - from) + 1;
      if (spanned > textLength + count) throw new InputError(`the value labels "${setName}" of the Stata file have texts that overlap (the table holds ${formatCount(textLength)} bytes of text); it is damaged`, r.file);
      text = decode(texts.subarray(from, to));
      byOffset.set(from, text);
    }
    table.set(value, text);
  });
  return table;
}

/** A number cell, or undefined when it is one of Stata's missing values (. and .a–.z). */
function numberAt(bytes: Buffer, at: number, type: 'byte' | 'int' | 'long' | 'float' | 'double', little: boolean): number | undefined {
  switch (type) {
    case 'byte': {
      const v = bytes.readInt8(at);
      return v > 100 ? undefined : v;
    }
    case 'int': {
      const v = little ? bytes.readInt16LE(at) : bytes.readInt16BE(at);
      return v > 32740 ? undefined : v;
    }
    case 'long': {
      const v = little ? bytes.readInt32LE(at) : bytes.readInt32BE(at);
      return v > 2147483620 ? undefined : v;
    }
    case 'float': {
      const v = little ? bytes.readFloatLE(at) : bytes.readFloatBE(at);
      return v >= 1.7014118346046923e38 || Number.isNaN(v) ? undefined : Math.fround(v);
    }
    case 'double': {
      const v = little ? bytes.readDoubleLE(at) : bytes.readDoubleBE(at);
      return v >= 8.98846567431158e307 || Number.isNaN(v) ? undefined : v;
    }
  }
}

/** A float as its shortest decimal that reads back to the same float (7.5 rather than 7.5 exactly, 0.1 rather than 0.10000000149). */
function floatText(v: number): string {
  for (let digits = 1; digits <= 9; digits++) {
    const text = Number(v.toPrecision(digits));
    if (Math.fround(text) === v) return String(text);
  }
  return String(v);
}

/** A %td or %tc value as an ISO date; undefined for other formats and for values no calendar date can be (they stay numbers). */
function dateText(v: number, format: string): string | undefined {
  // Every fraction of a second (of a day, for %td) the double holds is kept: 12:00:00.5 is not 12:00:00.
  if (/^%-?t[cC]/.test(format)) return dateTimeText(v, STATA_CLOCK);
  if (/^%-?t?d/.test(format)) return dayText(v, STATA_EPOCH_DAYS);
  // Periods counted from 1960 (Stata's %tm, %tq, %th, %tw, %ty) as the periods people write.
  if (!Number.isInteger(v) || Math.abs(v) > 1e7) return undefined;
  const period = (per: number): { year: number; index: number } => ({ year: 1960 + Math.floor(v / per), index: (((v % per) + per) % per) + 1 });
  const two = (n: number): string => String(n).padStart(2, '0');
  if (/^%-?tm/.test(format)) return ((p) => `${p.year}-${two(p.index)}`)(period(12));
  if (/^%-?tq/.test(format)) return ((p) => `${p.year}-Q${p.index}`)(period(4));
  if (/^%-?th/.test(format)) return ((p) => `${p.year}-H${p.index}`)(period(2));
  // Stata's weeks are 52 a year (the last one longer), not ISO weeks: written as Stata writes them.
  if (/^%-?tw/.test(format)) return ((p) => `${p.year}w${p.index}`)(period(52));
  if (/^%-?ty/.test(format)) return String(v);
  return undefined;
}

function toTable(p: Parsed, bytes: Buffer, file: string, options: ImportOptions): ImportedTable {
  // Observations of no variables would be counted for ever.
  if (p.variables.length === 0) throw new InputError('the Stata file declares no variables', file);
  const header = p.variables.map((v) => v.name);
  const problem = checkHeader(header);
  if (problem) throw new InputError(problem, file);
  if (p.dataStart + p.rowWidth * p.rows > bytes.length) throw new InputError(`the Stata file declares ${p.rows} observations but ends inside them; it is truncated`, file);
  const offsets: number[] = [];
  p.variables.reduce((at, v) => (offsets.push(at), at + widthOf(v.kind)), 0);
  const builder = new TableBuilder(header, options.missing);
  const replaced = p.variables.map(() => new Map<string, string>());
  /** Each strL's text, decoded when a cell first shows it. */
  const strlText = new Map<Buffer, string>();
  const missingCount = p.variables.map(() => 0);
  const fields = new Array<string>(p.variables.length);
  for (let row = 0; row < p.rows; row++) {
    const base = p.dataStart + row * p.rowWidth;
    p.variables.forEach((v, j) => {
      const at = base + offsets[j]!;
      if (v.kind.kind === 'string') {
        const raw = bytes.subarray(at, at + v.kind.width);
        const end = raw.indexOf(0);
        fields[j] = p.decode(end < 0 ? raw : raw.subarray(0, end));
        return;
      }
      if (v.kind.kind === 'strl') {
        // The cell holds (variable, observation) of the strL it shows, packed by release.
        const content = strlKeys(bytes, at, p.release, p.little).map((key) => p.strls.get(key)).find((c) => c !== undefined);
        if (!content) {
          fields[j] = '';
          return;
        }
        // Decoded once: cells may all point at one long strL, and decoding it per cell costs rows × its length.
        let text = strlText.get(content);
        if (text === undefined) strlText.set(content, (text = p.decode(content)));
        fields[j] = text;
        return;
      }
      const value = numberAt(bytes, at, v.kind.type, p.little);
      if (value === undefined) {
        missingCount[j]!++;
        fields[j] = '';
        return;
      }
      const label = v.labelSet ? p.labelSets.get(v.labelSet)?.get(value) : undefined;
      if (label !== undefined) {
        replaced[j]!.set(String(value), label);
        fields[j] = label;
        return;
      }
      fields[j] = dateText(value, v.format) ?? (v.kind.type === 'float' ? floatText(value) : String(value));
    });
    builder.add(fields);
  }
  // Variables often share one label set: its list is made once and shared.
  const labelLists = new Map<string, { labelSet?: string[] }>();
  const labelListOf = (name: string): { labelSet?: string[] } => {
    let list = labelLists.get(name);
    if (!list) labelLists.set(name, (list = labelSetOf(p.labelSets.get(name))));
    return list;
  };
  const variables: VariableMetadata[] = p.variables.map((v, j) => ({
    name: v.name,
    ...(v.label ? { label: v.label } : {}),
    valueLabels: [...replaced[j]!].map(([code, label]) => ({ code, label })),
    ...(v.labelSet ? labelListOf(v.labelSet) : {}),
    declaredMissing: missingCount[j]!,
    ...(/^%-?t[cC]/.test(v.format) ? { dates: 'datetime' as const } : /^%-?t?d/.test(v.format) ? { dates: 'date' as const } : {}),
  }));
  return {
    table: builder.build(),
    format: 'dta',
    ...(p.release >= 118 ? { encoding: 'utf-8' as const } : {}),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    rejectedRows: [],
    rejectedRowCount: 0,
    variables,
  };
}

/**
 * The (variable, observation) a strL cell refers to: 4 + 4 bytes in release 117, 2 + 6 in 118;
 * Stata documents 3 + 5 for 119, while ReadStat (R's haven) writes 2 + 6: both are tried.
 */
function strlKeys(bytes: Buffer, at: number, release: number, little: boolean): string[] {
  const read = (from: number, length: number): number => (little ? bytes.readUIntLE(from, length) : bytes.readUIntBE(from, length));
  const split = (vBytes: number): string => `${read(at, vBytes)}:${read(at + vBytes, 8 - vBytes)}`;
  if (release === 117) return [split(4)];
  return release === 118 ? [split(2)] : [split(2), split(3)];
}

/** The largest non-missing value of a long; a label table keys Stata's missing values (.a–.z) above it. */
const LONG_MAX_VALUE = 2_147_483_620;

/** Every label of a variable's label set but those of missing values (.a–.z), which are read as missing, never as values. */
function labelSetOf(set: ReadonlyMap<number, string> | undefined): { labelSet?: string[] } {
  const labels = [...(set ?? [])].filter(([value]) => value <= LONG_MAX_VALUE).map(([, label]) => label);
  return labels.length > 0 ? { labelSet: [...new Set(labels)] } : {};
}
