import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { codePageText } from './code-page-text.js';
import type { ImportedTable, ImportOptions, VariableMetadata } from './import-types.js';
import { InputError } from './input-error.js';
import { sasDateKind, sasDateText } from './sas-dates.js';
import { overlappingFields } from './field-layout.js';
import { checkHeader, TableBuilder } from './table-builder.js';
import { isBlankOrNul, trimTrailing } from '../../common/trim-ends.js';

/**
 * SAS transport files (.xpt), versions 5 and 8, read from SAS's published
 * description (TS-140, "The record layout of a data set in SAS transport
 * format", and its version 8 extension): 80-byte header records, one NAMESTR of
 * 140 bytes per variable, then the observations, numbers in IBM 370 floating
 * point. SAS's missing values (., .A–.Z, ._) are missing; DATE and DATETIME
 * formats arrive as ISO dates. The first data set of the file is read.
 */

const RECORD = 80;
/** White space as /\s/ knows it, or NUL: what pads names, labels and formats. */
const isSpaceOrNul = (code: number): boolean => code === 0 || /\s/.test(String.fromCharCode(code));
const LIBRARY_V5 = 'HEADER RECORD*******LIBRARY HEADER RECORD!!!!!!!';
const LIBRARY_V8 = 'HEADER RECORD*******LIBV8   HEADER RECORD!!!!!!!';

export function isSasTransportFile(head: Buffer): boolean {
  const start = head.subarray(0, 48).toString('latin1');
  return start === LIBRARY_V5 || start === LIBRARY_V8;
}

interface Variable {
  readonly numeric: boolean;
  readonly length: number;
  readonly position: number;
  readonly name: string;
  readonly label: string;
  readonly format: string;
}

export function readXpt(path: string, options: ImportOptions): ImportedTable {
  const file = basename(path);
  const bytes = readFileSync(path);
  const text = (from: number, length: number): string => bytes.subarray(from, from + length).toString('latin1');
  const record = (index: number): string => text(index * RECORD, RECORD);
  const v8 = text(0, 48) === LIBRARY_V8;
  if (bytes.length < 8 * RECORD) throw new InputError('the SAS transport file ends inside its headers; it is truncated', file);
  // Records: 0 library header, 1–2 library data, 3 member header, 4 descriptor header, 5–6 member data, 7 NAMESTR header.
  const member = record(3);
  if (!member.startsWith(v8 ? 'HEADER RECORD*******MEMBV8' : 'HEADER RECORD*******MEMBER')) throw new InputError('the SAS transport file has no data set header where one belongs; it is damaged', file);
  const namestrLength = Number(member.slice(74, 78));
  if (namestrLength !== 140 && namestrLength !== 136) throw new InputError(`the SAS transport file declares variable descriptors of ${namestrLength} bytes (140 expected)`, file);
  const namestrHeader = record(7);
  if (!namestrHeader.startsWith(v8 ? 'HEADER RECORD*******NAMSTV8' : 'HEADER RECORD*******NAMESTR')) throw new InputError('the SAS transport file has no variable descriptors where they belong; it is damaged', file);
  const count = Number(namestrHeader.slice(54, 58));
  const decode = codePageText();
  const textAt = (from: number, length: number): string => trimTrailing(decode(bytes.subarray(from, from + length)), isSpaceOrNul);
  let at = 8 * RECORD;
  if (at + count * namestrLength > bytes.length) throw new InputError('the SAS transport file ends inside its variable descriptors; it is truncated', file);
  const variables: Variable[] = [];
  for (let i = 0; i < count; i++, at += namestrLength) {
    const short = textAt(at + 8, 8);
    const long = v8 ? textAt(at + 88, 32) : '';
    variables.push({
      numeric: bytes.readInt16BE(at) === 1,
      length: bytes.readInt16BE(at + 4),
      position: bytes.readInt32BE(at + 84),
      name: long || short,
      label: textAt(at + 16, 40),
      format: textAt(at + 56, 8).toUpperCase(),
    });
  }
  at = Math.ceil(at / RECORD) * RECORD;
  // Headers until the observations. Version 8 keeps labels longer than 40 characters in a LABELV8
  // (or LABELV9, with format names) record: per variable its number, the lengths, the name, the label.
  const longLabels = new Map<number, string>();
  while (at + RECORD <= bytes.length && !text(at, RECORD).startsWith(v8 ? 'HEADER RECORD*******OBSV8' : 'HEADER RECORD*******OBS     ')) {
    const header = text(at, RECORD);
    at += RECORD;
    const version = header.startsWith('HEADER RECORD*******LABELV8') ? 8 : header.startsWith('HEADER RECORD*******LABELV9') ? 9 : 0;
    if (version === 0) continue;
    const labelled = Number.parseInt(header.slice(48).trim(), 10);
    let from = at;
    for (let i = 0; i < labelled && from + 6 <= bytes.length; i++) {
      const variable = bytes.readUInt16BE(from);
      const nameLength = bytes.readUInt16BE(from + 2);
      const labelLength = bytes.readUInt16BE(from + 4);
      const extra = version === 9 ? bytes.readUInt16BE(from + 6) + bytes.readUInt16BE(from + 8) : 0;
      from += version === 9 ? 10 : 6;
      longLabels.set(variable, textAt(from + nameLength, labelLength));
      from += nameLength + labelLength + extra;
    }
    at = Math.ceil(from / RECORD) * RECORD;
  }
  variables.forEach((v, i) => {
    const label = longLabels.get(i + 1);
    if (label) variables[i] = { ...v, label };
  });
  if (at + RECORD > bytes.length) throw new InputError('the SAS transport file has no observations header; it is truncated', file);
  at += RECORD;
  const header = variables.map((v) => v.name);
  const problem = checkHeader(header);
  if (problem) throw new InputError(problem, file);
  variables.forEach((v) => {
    if (v.position < 0 || v.length < 1) throw new InputError(`variable ${v.name} of the SAS transport file declares ${v.length} bytes at byte ${v.position} of an observation; it is damaged`, file);
  });
  const overlap = overlappingFields(variables.map((v) => ({ start: v.position, length: v.length })));
  if (overlap) throw new InputError(`variables ${variables[overlap[0]]!.name} and ${variables[overlap[1]]!.name} of the SAS transport file share bytes of an observation; it is damaged`, file);
  const width = variables.reduce((max, v) => Math.max(max, v.position + v.length), 0);
  if (width <= 0) throw new InputError('the SAS transport file declares no variables', file);
  // The observations run to the end of the file or to the next data set; the last record is padded with spaces.
  const next = bytes.indexOf('HEADER RECORD*******MEMB', at, 'latin1');
  const end = next < 0 ? bytes.length : next;
  const builder = new TableBuilder(header, options.missing);
  const missing = variables.map(() => 0);
  const dateKinds = variables.map((v) => (v.numeric ? sasDateKind(v.format) : undefined));
  const fields = new Array<string>(variables.length);
  for (let row = at; row + width <= end; row += width) {
    // Padding after the last observation: spaces up to the record's end.
    if (end - row < RECORD && bytes.subarray(row, end).every((b) => b === 0x20)) break;
    variables.forEach((v, j) => {
      const cell = bytes.subarray(row + v.position, row + v.position + v.length);
      if (!v.numeric) {
        fields[j] = trimTrailing(decode(cell), isBlankOrNul);
        return;
      }
      const value = ibmFloat(cell);
      if (value === undefined) {
        missing[j]!++;
        fields[j] = '';
        return;
      }
      const kind = dateKinds[j];
      const date = kind ? sasDateText(value, kind) : '';
      // A value no calendar date can be stays the number the file holds: nothing is blanked uncounted.
      fields[j] = date || numberText(value);
    });
    builder.add(fields);
  }
  const metadata: VariableMetadata[] = variables.map((v, j) => ({
    name: v.name,
    ...(v.label ? { label: v.label } : {}),
    valueLabels: [],
    declaredMissing: missing[j]!,
    ...(dateKinds[j] ? { dates: dateKinds[j] } : {}),
  }));
  return {
    table: builder.build(),
    format: 'xpt',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    rejectedRows: [],
    rejectedRowCount: 0,
    variables: metadata,
  };
}

/**
 * An IBM System/370 floating-point number (sign, base-16 exponent biased by 64, 56-bit fraction),
 * 2 to 8 bytes; undefined for SAS's missing values (., .A–.Z, ._: that byte, then zeros).
 */
export function ibmFloat(cell: Uint8Array): number | undefined {
  const bytes = new Uint8Array(8);
  bytes.set(cell.subarray(0, 8));
  const first = bytes[0]!;
  const rest = bytes.subarray(1).every((b) => b === 0);
  if (rest && (first === 0x2e || first === 0x5f || (first >= 0x41 && first <= 0x5a))) return undefined;
  if (first === 0 && rest) return 0;
  const sign = first & 0x80 ? -1 : 1;
  const exponent = (first & 0x7f) - 64;
  const high = (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
  const low = ((bytes[4]! << 24) >>> 0) + (bytes[5]! << 16) + (bytes[6]! << 8) + bytes[7]!;
  const fraction = (high * 2 ** 32 + low) / 2 ** 56;
  return sign * fraction * 16 ** exponent;
}

/**
 * A number as people write it. Integers (identifiers, counts) are exact up to 2^53. Other values:
 * IBM floats carry 56 bits and conversions round, so 0.1 arrives as 0.09999999999999999; fifteen
 * significant digits, the most a double holds exactly, say 0.1.
 */
function numberText(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  return String(Number(value.toPrecision(15)));
}
