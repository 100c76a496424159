import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { inflateSync } from 'node:zlib';

import { checkHeader, TableBuilder } from './table-builder.js';
import type { ImportedTable, ImportOptions, VariableMetadata } from './import-types.js';
import { InputError } from './input-error.js';
import { isBlankOrNul, isReplacement, trimTrailing } from '../../common/trim-ends.js';
import { dateTimeText, isoDateOfMilliseconds, SPSS_CLOCK } from './date-time-text.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * SPSS system files (.sav, and .zsav with zlib-compressed data), read from the
 * format as PSPP documents it ("System File Format", PSPP manual appendix):
 * the dictionary (variables, labels, missing values, value labels, long names,
 * very long strings, the encoding), then the cases, uncompressed or
 * bytecode-compressed. Value labels become the values people see; declared
 * missing values are read as missing; dates arrive as ISO dates. What was
 * replaced is kept as metadata for the report.
 */

/** SPSS format types that hold dates (seconds since 14 October 1582) and date-times. */
const DATE_FORMATS = new Set([20, 23, 24, 28, 29, 30, 38, 39]);
const DATETIME_FORMATS = new Set([22, 41]);
/** Seconds from the Gregorian epoch SPSS uses (1582-10-14) to the Unix epoch. */
const SPSS_EPOCH_TO_UNIX = 12_219_379_200;
/**
 * Value labels copied between variables (a variable in several label sets) that a file may cause:
 * far beyond real dictionaries, yet bounding what a crafted one costs (about 100 MB).
 */
const MAX_COPIED_LABELS = 1_000_000;

interface Variable {
  /** 0 numeric, else the string width in bytes. */
  width: number;
  /** Index of its first 8-byte element in a case. */
  element: number;
  elements: number;
  shortName: string;
  name: string;
  label?: string;
  printType: number;
  /** Declared missing values: discrete values (numbers or strings) and, for numbers, one range. */
  missing: { values: (number | string)[]; range?: [number, number] };
  /** Value labels by value (numbers by their float64 bits as a string key; strings trimmed). */
  labels: Map<string, string>;
  /** Whether `labels` is a label set's map shared with other variables (copied before it is changed). */
  sharedLabels: boolean;
  /** Segments of a very long string that follow this variable (their data joins its own). */
  segments: Variable[];
}

class Cursor {
  offset = 0;
  constructor(
    readonly bytes: Buffer,
    readonly little: boolean,
    readonly file: string,
  ) {}
  need(n: number): void {
    // Lengths come from the file: a negative one would move the cursor back and read for ever.
    if (!Number.isInteger(n) || n < 0 || this.offset + n > this.bytes.length) throw new InputError(`the SPSS file ends inside its dictionary (at byte ${this.offset}); it is truncated or damaged`, this.file);
  }
  int(): number {
    this.need(4);
    const v = this.little ? this.bytes.readInt32LE(this.offset) : this.bytes.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  double(): number {
    this.need(8);
    const v = this.little ? this.bytes.readDoubleLE(this.offset) : this.bytes.readDoubleBE(this.offset);
    this.offset += 8;
    return v;
  }
  raw(n: number): Buffer {
    this.need(n);
    const v = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }
}

const ascii = (b: Buffer): string => b.toString('latin1');

/** The key a number's value label is stored under: its exact bits, so 1 and 1.0000000001 differ. */
function numberKey(value: number): string {
  return `n:${value}`;
}

/** Whether these first bytes start an SPSS system file, whatever the file's name. */
export function isSpssFile(head: Buffer): boolean {
  const magic = ascii(head.subarray(0, 4));
  return magic === '$FL2' || magic === '$FL3';
}

export function readSav(path: string, options: ImportOptions): ImportedTable {
  const name = basename(path);
  const bytes = readFileSync(path);
  const magic = ascii(bytes.subarray(0, 4));
  if (magic !== '$FL2' && magic !== '$FL3') throw new InputError('this is not an SPSS system file (no $FL2 or $FL3 at its start)', name);
  if (bytes.length < 176) throw new InputError('the SPSS file is shorter than its header; it is truncated', name);
  // The layout code is 2 or 3 in the file's byte order: it tells the order.
  const layoutLE = bytes.readInt32LE(64);
  const little = layoutLE === 2 || layoutLE === 3;
  const c = new Cursor(bytes, little, name);
  c.offset = 68;
  c.int(); // nominal case size: the dictionary is counted instead
  const compression = c.int();
  // The weight variable, by its first element (1-based; 0 when the file has none).
  const weightElement = c.int() - 1;
  const declaredCases = c.int();
  const bias = c.double();
  c.offset = 176;
  if (compression !== 0 && compression !== 1 && compression !== 2) throw new InputError(`unknown SPSS compression ${compression}`, name);

  const variables: Variable[] = [];
  /** Every 8-byte element's variable (continuations point at their variable). */
  const byElement: Variable[] = [];
  let codePage: number | undefined;
  let encodingName: string | undefined;
  let sysmis = -Number.MAX_VALUE;
  const longNames: [string, string][] = [];
  const veryLong: [string, number][] = [];
  const labelSets: { labels: { value: Buffer; label: Buffer }[]; elements: number[] }[] = [];
  const longStringLabels: Buffer[] = [];
  const longStringMissing: Buffer[] = [];
  // Text is decoded once the encoding is known, which the dictionary may say only at its end.
  const rawText = new Map<Variable, { label?: Buffer; missing: Buffer[] }>();
  for (;;) {
    const type = c.int();
    if (type === 999) {
      c.int();
      break;
    }
    if (type === 2) {
      const width = c.int();
      const hasLabel = c.int();
      const nMissing = c.int();
      const print = c.int();
      c.int(); // write format
      const shortName = ascii(c.raw(8)).trimEnd();
      let labelBytes: Buffer | undefined;
      if (hasLabel === 1) {
        const length = c.int();
        labelBytes = c.raw(Math.ceil(length / 4) * 4).subarray(0, length);
      }
      // SPSS allows three discrete values, a range, or a range and one value (−3 … 3): more is crafted,
      // and every cell would be compared with each of them.
      if (nMissing < -3 || nMissing > 3) throw new InputError(`the variable ${JSON.stringify(shortName)} declares ${nMissing} missing values; an SPSS file declares at most 3`, name);
      const missingRaw: Buffer[] = [];
      for (let i = 0; i < Math.abs(nMissing); i++) missingRaw.push(c.raw(8));
      if (width === -1) {
        // A continuation of the previous long string: one more 8-byte element of it.
        const owner = variables[variables.length - 1];
        if (!owner) throw new InputError('the SPSS dictionary starts with a string continuation', name);
        owner.elements++;
        byElement.push(owner);
        continue;
      }
      const v: Variable = {
        width,
        element: byElement.length,
        elements: 1,
        shortName,
        name: shortName,
        printType: (print >> 16) & 0xff,
        missing: { values: [] },
        labels: new Map(),
        sharedLabels: false,
        segments: [],
      };
      if (labelBytes) rawText.set(v, { label: labelBytes, missing: [] });
      if (width === 0) {
        const values = missingRaw.map((b) => (little ? b.readDoubleLE(0) : b.readDoubleBE(0)));
        if (nMissing <= -2) v.missing.range = [values[0]!, values[1]!];
        v.missing.values = nMissing <= -2 ? values.slice(2) : values;
      } else if (missingRaw.length > 0) {
        rawText.set(v, { ...(labelBytes ? { label: labelBytes } : {}), missing: missingRaw });
      }
      variables.push(v);
      byElement.push(v);
      continue;
    }
    if (type === 3) {
      const count = c.int();
      const labels: { value: Buffer; label: Buffer }[] = [];
      for (let i = 0; i < count; i++) {
        const value = c.raw(8);
        const length = c.raw(1)[0]!;
        const padded = Math.ceil((length + 1) / 8) * 8 - 1;
        labels.push({ value, label: c.raw(padded).subarray(0, length) });
      }
      if (c.int() !== 4) throw new InputError('an SPSS value label record is not followed by its variables', name);
      const n = c.int();
      const elements: number[] = [];
      for (let i = 0; i < n; i++) elements.push(c.int() - 1);
      labelSets.push({ labels, elements });
      continue;
    }
    if (type === 6) {
      const lines = c.int();
      c.raw(lines * 80);
      continue;
    }
    if (type === 7) {
      const subtype = c.int();
      const size = c.int();
      const count = c.int();
      const data = c.raw(size * count);
      if (subtype === 3 && size === 4 && count >= 8) {
        codePage = little ? data.readInt32LE(28) : data.readInt32BE(28);
      } else if (subtype === 4 && size === 8 && count >= 1) {
        sysmis = little ? data.readDoubleLE(0) : data.readDoubleBE(0);
      } else if (subtype === 13) {
        for (const pair of ascii(data).split('\t')) {
          const eq = pair.indexOf('=');
          if (eq > 0) longNames.push([pair.slice(0, eq), pair.slice(eq + 1)]);
        }
      } else if (subtype === 14) {
        for (const pair of ascii(data).split('\t')) {
          const clean = pair.replace(/\0/g, '');
          const eq = clean.indexOf('=');
          if (eq <= 0) continue;
          const width = Number(clean.slice(eq + 1));
          if (!Number.isInteger(width) || width < 256 || width > 32767) throw new InputError(`the SPSS file declares a very long string of width ${clean.slice(eq + 1)} (256 to 32,767 bytes are possible); it is damaged`, name);
          veryLong.push([clean.slice(0, eq), width]);
        }
      } else if (subtype === 20) {
        encodingName = ascii(data).replace(/\0/g, '').trim();
      } else if (subtype === 21) {
        longStringLabels.push(data);
      } else if (subtype === 22) {
        longStringMissing.push(data);
      }
      continue;
    }
    throw new InputError(`unknown SPSS dictionary record type ${type} at byte ${c.offset - 4}; the file is damaged`, name);
  }

  const { label: encoding, text } = textDecoderOf(encodingName, codePage, name);
  for (const [v, raw] of rawText) {
    if (raw.label) v.label = text(raw.label);
    if (raw.missing.length > 0) v.missing.values = raw.missing.map((b) => padless(text(b)));
  }
  // Long names (and very long strings) name variables by their short names.
  const byShortName = new Map(variables.map((v) => [v.shortName, v]));
  for (const [short, long] of longNames) {
    const v = byShortName.get(short);
    if (v) v.name = text(Buffer.from(long, 'latin1'));
  }
  // A very long string is stored as segments of 255 bytes, each a variable of its own: join them.
  const dropped = new Set<Variable>();
  // Positions by variable, not indexOf: a record naming many strings would otherwise cost strings × variables.
  const position = new Map(variables.map((v, i) => [v, i]));
  const joined = new Set<Variable>();
  for (const [short, width] of veryLong) {
    const first = byShortName.get(short);
    if (!first) continue;
    // A string named again would take its segments again: a crafted record naming one string
    // thousands of times gave it millions of segments, read for every case.
    if (joined.has(first)) throw new InputError(`the SPSS file names the very long string ${short} twice in its record of very long strings; it is damaged`, name);
    joined.add(first);
    const segments = Math.ceil(width / 252);
    const at = position.get(first)!;
    for (let s = 1; s < segments; s++) {
      const segment = variables[at + s];
      if (!segment) break;
      first.segments.push(segment);
      dropped.add(segment);
    }
    first.width = width;
  }
  // A label set is decoded once and its map shared by its variables: copied into each, a crafted
  // set of thousands of labels for thousands of variables cost minutes and gigabytes. A variable
  // in several sets gets its own copy, and what such copies hold in all is bounded.
  let copiedLabels = 0;
  const ownLabels = (v: Variable, adding: number): Map<string, string> => {
    copiedLabels += adding + (v.sharedLabels ? v.labels.size : 0);
    if (copiedLabels > MAX_COPIED_LABELS) throw new InputError(`the SPSS file gives its variables more than ${formatCount(MAX_COPIED_LABELS)} value labels from overlapping label sets; it is damaged`, name);
    if (v.sharedLabels) {
      v.labels = new Map(v.labels);
      v.sharedLabels = false;
    }
    return v.labels;
  };
  for (const set of labelSets) {
    const targets = [...new Set(set.elements.map((e) => byElement[e]).filter((v): v is Variable => v !== undefined))];
    let numbers: Map<string, string> | undefined;
    let strings: Map<string, string> | undefined;
    for (const v of targets) {
      const decoded = v.width === 0 ? (numbers ??= decodeLabelSet(set.labels, (value) => numberKey(little ? value.readDoubleLE(0) : value.readDoubleBE(0)), text)) : (strings ??= decodeLabelSet(set.labels, (value) => `s:${padless(text(value))}`, text));
      if (v.labels.size === 0) {
        v.labels = decoded;
        v.sharedLabels = true;
        continue;
      }
      const own = ownLabels(v, decoded.size);
      for (const [key, label] of decoded) own.set(key, label);
    }
  }
  // Strings longer than 8 bytes keep their value labels and missing values in extension records,
  // which name them by their long names.
  const byName = new Map(variables.map((v) => [v.name, v]));
  const named = (raw: Buffer): Variable | undefined => byName.get(text(raw));
  for (const data of longStringLabels) {
    readLongStringLabels(data, little, (variable, value, label) => {
      const v = named(variable);
      if (v) ownLabels(v, 0).set(`s:${padless(text(value))}`, text(label));
    });
  }
  for (const data of longStringMissing) {
    readLongStringMissing(data, little, (variable, values) => {
      const v = named(variable);
      if (v) v.missing.values = values.map((b) => padless(text(b)));
    });
  }
  const columns = variables.filter((v) => !dropped.has(v));
  // A case of no elements would be read for ever.
  if (columns.length === 0) throw new InputError('the SPSS file declares no variables', name);
  const header = columns.map((v) => v.name);
  const problem = checkHeader(header);
  if (problem) throw new InputError(problem, name);

  // The cases, as a stream of 8-byte elements.
  const caseElements = byElement.length;
  const elements = elementReader(bytes, c.offset, compression, bias, little, name);
  const builder = new TableBuilder(header, options.missing);
  const fields = new Array<string>(columns.length);
  /** Per column, each code that was read as its label (code → label: two codes may share a label). */
  const replaced = columns.map(() => new Map<string, string>());
  const declaredMissing = columns.map(() => 0);
  const SYSMIS = Symbol('sysmis');
  const cell = new Array<number | Buffer | typeof SYSMIS>(caseElements);
  for (;;) {
    let first = true;
    let ended = false;
    for (let e = 0; e < caseElements; e++) {
      const next = elements.next();
      if (next === undefined) {
        if (first) ended = true;
        else throw new InputError(`the SPSS file ends inside a case (case ${builder.rowCount + 1}); it is truncated`, name);
        break;
      }
      first = false;
      cell[e] = next === null ? SYSMIS : next;
    }
    if (ended) break;
    // A file holding more cases than it declares is damaged: refused here, before the rest is read.
    if (declaredCases >= 0 && builder.rowCount >= declaredCases) {
      throw new InputError(`the SPSS file declares ${declaredCases} cases but holds more; it is damaged`, name);
    }
    columns.forEach((v, j) => {
      if (v.width === 0) {
        const raw = cell[v.element]!;
        const value = raw === SYSMIS ? Number.NaN : typeof raw === 'number' ? raw : little ? (raw as Buffer).readDoubleLE(0) : (raw as Buffer).readDoubleBE(0);
        if (Number.isNaN(value) || value === sysmis) {
          fields[j] = '';
          return;
        }
        if (v.missing.values.includes(value) || (v.missing.range && value >= v.missing.range[0] && value <= v.missing.range[1])) {
          declaredMissing[j]!++;
          fields[j] = '';
          return;
        }
        const label = v.labels.get(numberKey(value));
        if (label !== undefined) {
          replaced[j]!.set(formatNumber(value), label);
          fields[j] = label;
          return;
        }
        // A date outside what a calendar date can be stays the number the file holds.
        const date = DATE_FORMATS.has(v.printType) ? isoFromSpss(value, false) : DATETIME_FORMATS.has(v.printType) ? isoFromSpss(value, true) : '';
        fields[j] = date || formatNumber(value);
        return;
      }
      const parts: Buffer[] = [];
      for (const owner of [v, ...v.segments]) {
        for (let e = 0; e < owner.elements; e++) {
          const raw = cell[owner.element + e];
          parts.push(raw instanceof Buffer ? raw : Buffer.alloc(8, 0x20));
        }
      }
      // Each segment of a very long string holds up to 255 bytes of it in its 256.
      const joined = v.segments.length > 0 ? Buffer.concat(segmentBytes(parts, v)) : Buffer.concat(parts).subarray(0, v.width);
      const value = padless(text(joined));
      if (v.missing.values.includes(value)) {
        declaredMissing[j]!++;
        fields[j] = '';
        return;
      }
      const label = v.labels.get(`s:${value}`);
      if (label !== undefined) {
        replaced[j]!.set(value, label);
        fields[j] = label;
        return;
      }
      fields[j] = value;
    });
    builder.add(fields);
  }
  if (declaredCases >= 0 && builder.rowCount !== declaredCases) {
    throw new InputError(`the SPSS file declares ${declaredCases} cases but holds ${builder.rowCount}; it is truncated or damaged`, name);
  }
  // Variables often share one label set: its list is made once per set and missing-value declaration, and shared.
  const labelLists = new Map<Map<string, string>, Map<string, string[]>>();
  const labelSetOf = (v: Variable): string[] => {
    const byMissing = labelLists.get(v.labels) ?? new Map<string, string[]>();
    labelLists.set(v.labels, byMissing);
    const key = JSON.stringify(v.missing);
    let labels = byMissing.get(key);
    if (!labels) byMissing.set(key, (labels = declaredLabels(v)));
    return labels;
  };
  const metadata: VariableMetadata[] = columns.map((v, j) => ({
    name: v.name,
    ...(v.label ? { label: v.label } : {}),
    valueLabels: [...replaced[j]!].map(([code, label]) => ({ code, label })),
    ...(v.labels.size > 0 ? { labelSet: labelSetOf(v) } : {}),
    declaredMissing: declaredMissing[j]!,
    ...(v.element === weightElement ? { weight: true as const } : {}),
    ...(DATE_FORMATS.has(v.printType) ? { dates: 'date' as const } : DATETIME_FORMATS.has(v.printType) ? { dates: 'datetime' as const } : {}),
  }));
  return {
    table: builder.build(),
    format: 'sav',
    ...(encoding === 'utf-8' || encoding === 'windows-1252' ? { encoding } : {}),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    rejectedRows: [],
    rejectedRowCount: 0,
    variables: metadata,
  };
}

/** The distinct labels of a variable's label set, but those of values it declares missing (they are read as missing, never as values). */
function declaredLabels(v: Variable): string[] {
  const missingKeys = new Set(v.missing.values.map((m) => (typeof m === 'number' ? numberKey(m) : `s:${m}`)));
  const range = v.missing.range;
  const labels = [...v.labels].filter(([key]) => {
    if (missingKeys.has(key)) return false;
    const n = key.startsWith('n:') ? Number(key.slice(2)) : Number.NaN;
    return !(range && n >= range[0] && n <= range[1]);
  });
  return [...new Set(labels.map(([, label]) => label))];
}

/** A label set's labels by the key its variables look values up by. */
function decodeLabelSet(labels: readonly { value: Buffer; label: Buffer }[], key: (value: Buffer) => string, text: (b: Buffer) => string): Map<string, string> {
  return new Map(labels.map(({ value, label }) => [key(value), text(label)]));
}

function segmentBytes(parts: Buffer[], v: Variable): Buffer[] {
  const all = Buffer.concat(parts);
  const out: Buffer[] = [];
  let remaining = v.width;
  // Every segment but the last is a 255-byte string stored in 32 elements (256 bytes); all 255 bytes
  // are data (252 only enters the count of segments, as PSPP describes the format).
  for (let at = 0; remaining > 0 && at < all.length; at += 256) {
    const take = Math.min(255, remaining);
    out.push(all.subarray(at, at + take));
    remaining -= take;
  }
  return out;
}

/** A number as people write it: integers without a decimal point, others in the shortest exact form. */
function formatNumber(value: number): string {
  return Object.is(value, -0) ? '0' : String(value);
}

/**
 * A date (whole days; a date format over a time of day is written with it) or date-time as ISO
 * text with every fraction of a second the double holds; '' when no calendar date is that value.
 */
function isoFromSpss(seconds: number, withTime: boolean): string {
  if (!withTime && seconds % 86_400 === 0) return isoDateOfMilliseconds((seconds - SPSS_EPOCH_TO_UNIX) * 1000) ?? '';
  return dateTimeText(seconds, SPSS_CLOCK) ?? '';
}

/**
 * The data's 8-byte elements one at a time: a number, a Buffer of 8 raw bytes
 * (strings, or numbers stored raw), null for system-missing, undefined at the end.
 */
function elementReader(bytes: Buffer, start: number, compression: number, bias: number, little: boolean, file: string): { next(): number | Buffer | null | undefined } {
  if (compression === 0) {
    let at = start;
    return {
      next() {
        if (at + 8 > bytes.length) return undefined;
        const raw = bytes.subarray(at, at + 8);
        at += 8;
        return raw;
      },
    };
  }
  // A .zsav's blocks are inflated one at a time as the cases are read: the whole stream can be a thousand times the file.
  const unit = eightByteUnits(compression === 2 ? zsavBlocks(bytes, start, little, file) : [bytes.subarray(start)][Symbol.iterator]());
  let commands: Buffer | undefined;
  let command = 8;
  return {
    next() {
      for (;;) {
        if (!commands || command === 8) {
          commands = unit();
          if (!commands) return undefined;
          command = 0;
        }
        const code = commands[command++]!;
        if (code === 0) continue;
        if (code === 252) return undefined;
        if (code === 253) {
          const raw = unit();
          if (!raw) throw new InputError('the SPSS file ends inside a compressed case; it is truncated', file);
          return raw;
        }
        if (code === 254) return Buffer.alloc(8, 0x20);
        if (code === 255) return null;
        return code - bias;
      }
    },
  };
}

/** The 8-byte units of a stream given as blocks (a unit may straddle two); undefined when fewer than 8 bytes are left. */
function eightByteUnits(blocks: Iterator<Buffer>): () => Buffer | undefined {
  let block: Buffer = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 8 <= block.length) {
      at += 8;
      return block.subarray(at - 8, at);
    }
    const unit = Buffer.alloc(8);
    let filled = 0;
    while (filled < 8) {
      if (at < block.length) {
        const n = Math.min(8 - filled, block.length - at);
        block.copy(unit, filled, at, at + n);
        filled += n;
        at += n;
        continue;
      }
      const next = blocks.next();
      if (next.done) return undefined;
      block = next.value;
      at = 0;
    }
    return unit;
  };
}

/** The largest data block of a .zsav inflated (SPSS and PSPP write blocks of about 4 MB). */
const MAX_ZSAV_BLOCK = 64 * 2 ** 20;

/**
 * A .zsav's data: a header naming the zlib blocks, checked here, each inflated when the cases
 * reach it into the bytecode stream.
 */
function zsavBlocks(bytes: Buffer, start: number, little: boolean, file: string): Iterator<Buffer> {
  const int64 = (at: number): number => Number(little ? bytes.readBigInt64LE(at) : bytes.readBigInt64BE(at));
  const int32 = (at: number): number => (little ? bytes.readInt32LE(at) : bytes.readInt32BE(at));
  if (start + 24 > bytes.length) throw new InputError('the .zsav file ends before its data header', file);
  const trailerOffset = int64(start + 8);
  const trailerLength = int64(start + 16);
  if (trailerOffset + trailerLength > bytes.length || trailerLength < 24) throw new InputError('the .zsav file is truncated (its block table is missing)', file);
  const blockSize = int32(trailerOffset + 16);
  const blocks = int32(trailerOffset + 20);
  if (blocks < 0 || trailerOffset + 24 + blocks * 24 > bytes.length) throw new InputError(`the .zsav file declares ${blocks} data blocks, more than its block table holds`, file);
  // The blocks follow each other from the data header to the block table, as SPSS and PSPP write them:
  // entries that point at the same compressed bytes again would inflate a small file without end.
  let expectedOffset = start + 24;
  const table = Array.from({ length: blocks }, (_, b) => {
    const entry = trailerOffset + 24 + b * 24;
    const compressedOffset = int64(entry + 8);
    const uncompressedSize = int32(entry + 16);
    const compressedSize = int32(entry + 20);
    if (compressedOffset !== expectedOffset) throw new InputError(`data block ${b + 1} of the .zsav file starts at byte ${compressedOffset}, not where the block before it ends (${expectedOffset}); the file is damaged`, file);
    expectedOffset = compressedOffset + Math.max(compressedSize, 0);
    if (uncompressedSize <= 0 || uncompressedSize > Math.max(blockSize, 1)) throw new InputError(`a data block of the .zsav file declares ${uncompressedSize} bytes, more than its block size`, file);
    if (uncompressedSize > MAX_ZSAV_BLOCK) throw new InputError(`a data block of the .zsav file declares ${uncompressedSize} bytes; Custos inflates blocks of at most ${MAX_ZSAV_BLOCK} bytes`, file);
    // Deflate cannot expand data more than about 1032 to 1: a block that declares more is crafted.
    if (compressedSize < 0 || uncompressedSize > 1100 * compressedSize + 1024) throw new InputError(`a data block of the .zsav file declares ${uncompressedSize} bytes from ${compressedSize} compressed`, file);
    return { compressedOffset, compressedSize, uncompressedSize };
  });
  if (expectedOffset !== trailerOffset) throw new InputError(`the .zsav file's data blocks end at byte ${expectedOffset}, not at its block table (${trailerOffset}); the file is damaged`, file);
  let b = 0;
  return {
    next(): IteratorResult<Buffer> {
      const block = table[b++];
      if (!block) return { done: true, value: undefined };
      // Never more than the block says: a block that inflates further is refused, not followed.
      const value = inflateSync(bytes.subarray(block.compressedOffset, block.compressedOffset + block.compressedSize), { maxOutputLength: block.uncompressedSize });
      return { done: false, value };
    },
  };
}

/** Extension record 21: value labels of strings longer than 8 bytes, by variable name. */
function readLongStringLabels(data: Buffer, little: boolean, add: (variable: Buffer, value: Buffer, label: Buffer) => void): void {
  const int = (at: number): number => (little ? data.readInt32LE(at) : data.readInt32BE(at));
  // Every length comes from the file: a negative or overlong one ends the record instead of looping.
  const length = (at: number): number => {
    const n = at + 4 <= data.length ? int(at) : -1;
    return n >= 0 && at + 4 + n <= data.length ? n : -1;
  };
  let at = 0;
  while (at + 4 <= data.length) {
    const nameLength = length(at);
    if (nameLength < 0 || at + 8 + nameLength + 4 > data.length) return;
    const variable = data.subarray(at + 4, at + 4 + nameLength);
    at += 4 + nameLength + 4; // the name, then the variable's width
    const count = int(at);
    at += 4;
    for (let i = 0; i < count; i++) {
      const valueLength = length(at);
      if (valueLength < 0) return;
      const value = data.subarray(at + 4, at + 4 + valueLength);
      at += 4 + valueLength;
      const labelLength = length(at);
      if (labelLength < 0) return;
      const label = data.subarray(at + 4, at + 4 + labelLength);
      at += 4 + labelLength;
      add(variable, value, label);
    }
  }
}

/** Extension record 22: missing values of strings longer than 8 bytes, by variable name. */
function readLongStringMissing(data: Buffer, little: boolean, set: (variable: Buffer, values: Buffer[]) => void): void {
  const int = (at: number): number => (little ? data.readInt32LE(at) : data.readInt32BE(at));
  let at = 0;
  while (at + 4 <= data.length) {
    const nameLength = int(at);
    // Lengths come from the file: a negative or overlong one ends the record instead of looping.
    if (nameLength < 0 || at + 4 + nameLength + 5 > data.length) return;
    const variable = data.subarray(at + 4, at + 4 + nameLength);
    at += 4 + nameLength;
    const count = data[at]!;
    const valueLength = int(at + 1);
    at += 5;
    if (valueLength < 0 || at + count * valueLength > data.length) return;
    const values: Buffer[] = [];
    for (let i = 0; i < count; i++, at += valueLength) values.push(data.subarray(at, at + valueLength));
    set(variable, values);
  }
}

/** A string as SPSS pads it: trailing spaces in data, NULs in labels and missing values of short strings. */
function padless(value: string): string {
  return trimTrailing(value, isBlankOrNul);
}

/** Code pages SPSS names by number (record 7.3), as WHATWG encoding labels. */
const CODE_PAGES: ReadonlyMap<number, string> = new Map([
  [65001, 'utf-8'], [1252, 'windows-1252'], [28591, 'windows-1252'], [20127, 'windows-1252'], [2, 'windows-1252'], [3, 'windows-1252'],
  [1250, 'windows-1250'], [1251, 'windows-1251'], [1253, 'windows-1253'], [1254, 'windows-1254'], [1257, 'windows-1257'],
  [28592, 'iso-8859-2'], [28595, 'iso-8859-5'], [28597, 'iso-8859-7'], [28605, 'iso-8859-15'], [20866, 'koi8-r'], [21866, 'koi8-u'],
  [932, 'shift_jis'], [936, 'gbk'], [949, 'euc-kr'], [950, 'big5'],
]);

/**
 * The file's text decoder: the encoding record 7.20 names, else the code page of record 7.3,
 * else Windows-1252 (old files). An encoding the platform cannot decode is refused, never guessed.
 * Decoding is lenient: a fixed-width string may end inside a multi-byte character (PSPP writes such
 * files); what cannot be decoded there becomes U+FFFD and a trailing one is dropped.
 */
function textDecoderOf(name: string | undefined, codePage: number | undefined, file: string): { label: string; text: (b: Buffer) => string } {
  const label = name ? name.toLowerCase() : codePage !== undefined ? CODE_PAGES.get(codePage) : 'windows-1252';
  if (!label) throw new InputError(`the SPSS file is written in code page ${codePage}, which Custos cannot decode; save it as UTF-8 (SET UNICODE=ON) or Windows-1252`, file);
  let decoder: TextDecoder;
  try {
    // A value's leading U+FEFF is part of it, not a byte order mark (each value is decoded on its own).
    decoder = new TextDecoder(label === 'windows-1252' ? 'windows-1252' : label, { ignoreBOM: true });
  } catch {
    throw new InputError(`the SPSS file is written in ${name ?? label}, which Custos cannot decode; save it as UTF-8 (SET UNICODE=ON)`, file);
  }
  return { label: decoder.encoding, text: (b) => trimTrailing(decoder.decode(b), isReplacement) };
}
