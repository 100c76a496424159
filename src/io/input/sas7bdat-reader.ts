import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { ImportedTable, ImportOptions, VariableMetadata } from './import-types.js';
import { InputError } from './input-error.js';
import { sasDateKind, sasDateText } from './sas-dates.js';
import { rdcDecompress, rleDecompress } from './sas7bdat-decompress.js';
import { readStructure, type TextRef } from './sas7bdat-structure.js';
import { sasTextDecoder, type SasTextDecoder } from './sas7bdat-text.js';
import { overlappingFields } from './field-layout.js';
import { checkHeader, TableBuilder } from './table-builder.js';

/**
 * SAS data sets (.sas7bdat): the structure (sas7bdat-structure.ts) gives the variables and where
 * the rows are; here the rows become the table. Both word sizes (32-bit, and 64-bit "u64") and
 * byte orders, and both compressions (RLE, RDC). Every SAS missing value (., .A–.Z, ._) is missing
 * and counted; DATE and DATETIME formats arrive as ISO dates. Value labels live in a separate
 * format catalog (.sas7bcat), not read.
 */

export function readSas7bdat(path: string, options: ImportOptions): ImportedTable {
  const file = basename(path);
  const bytes = readFileSync(path);
  const fail = (message: string): never => {
    throw new InputError(message, file);
  };
  const { layout, encoding, meta, sources, compression } = readStructure(bytes, fail);
  const decoded = sasTextDecoder(encoding);
  if (typeof decoded !== 'function') return fail(`the SAS data set's text is in ${decoded.refused}; save it in SAS with ENCODING=UTF8 (or export it as CSV)`);
  const text: SasTextDecoder = decoded;

  const { rowLength, rowCount } = meta;
  if (rowLength === undefined || rowCount === undefined) return fail('the SAS data set has no row size subheader; it is damaged');
  const columnCount = meta.columnCount ?? meta.names.length;
  if (columnCount === 0) fail('the SAS data set declares no variables');
  if (meta.names.length < columnCount || meta.attributes.length < columnCount) fail(`the SAS data set describes ${Math.min(meta.names.length, meta.attributes.length)} of its ${columnCount} variables; it is damaged`);

  const textAt = (ref: TextRef): string => {
    if (ref.length === 0) return '';
    const blob = meta.texts[ref.index];
    if (!blob || ref.offset + ref.length > blob.length) return fail('a variable name, format or label points outside the text the SAS data set holds; it is damaged');
    return text(trimEnd(blob.subarray(ref.offset, ref.offset + ref.length)));
  };
  const variables = Array.from({ length: columnCount }, (_, j) => {
    const attributes = meta.attributes[j]!;
    if (attributes.offset + attributes.width > rowLength) fail(`variable ${j + 1} lies outside the ${rowLength}-byte row; the SAS data set is damaged`);
    const formats = meta.formats[j];
    const format = formats ? textAt(formats.format) : '';
    return {
      ...attributes,
      name: textAt(meta.names[j]!),
      label: formats ? textAt(formats.label) : '',
      dates: attributes.numeric ? sasDateKind(format) : undefined,
    };
  });
  const header = variables.map((v) => v.name);
  const problem = checkHeader(header);
  if (problem) fail(problem);
  const overlap = overlappingFields(variables.map((v) => ({ start: v.offset, length: v.width })));
  if (overlap) fail(`variables ${header[overlap[0]]} and ${header[overlap[1]]} of the SAS data set share bytes of a row; it is damaged`);

  const builder = new TableBuilder(header, options.missing);
  const missing = variables.map(() => 0);
  const fields = new Array<string>(columnCount);
  // RLE when the file does not say: the compression SAS's COMPRESS=YES and ReadStat write.
  const decompress = compression === 'rdc' ? rdcDecompress : rleDecompress;
  const addRow = (row: Uint8Array): void => {
    const view = new DataView(row.buffer, row.byteOffset, row.byteLength);
    for (let j = 0; j < columnCount; j++) {
      const v = variables[j]!;
      if (!v.numeric) {
        fields[j] = text(trimEnd(row.subarray(v.offset, v.offset + v.width)));
        continue;
      }
      const value = v.width === 8 ? view.getFloat64(v.offset, layout.little) : sasNumber(row.subarray(v.offset, v.offset + v.width), layout.little);
      if (Number.isNaN(value)) {
        missing[j]!++;
        fields[j] = '';
        continue;
      }
      // A value no calendar date can be stays the number the file holds: nothing is blanked uncounted.
      fields[j] = (v.dates ? sasDateText(value, v.dates) : '') || sasNumberText(value, v.width);
    }
    builder.add(fields);
  };
  for (const source of sources) {
    if (builder.rowCount >= rowCount) break;
    if (source.kind === 'compressed') {
      addRow(decompress(bytes.subarray(source.at, source.at + source.length), rowLength));
      continue;
    }
    if (source.kind === 'single') {
      if (source.length !== rowLength) fail(`a row of the SAS data set is ${source.length} bytes where rows have ${rowLength}; the file is damaged`);
      addRow(bytes.subarray(source.at, source.at + rowLength));
      continue;
    }
    // Within the page, whatever row length a damaged file declared when the page was read.
    const count = Math.min(source.count, rowCount - builder.rowCount, Math.floor((source.end - source.at) / rowLength));
    for (let r = 0; r < count; r++) addRow(bytes.subarray(source.at + r * rowLength, source.at + (r + 1) * rowLength));
  }
  // Fewer rows than the header promises: pages are missing or damaged. Never release a part silently.
  if (builder.rowCount < rowCount) fail(`the SAS data set declares ${rowCount} rows but holds ${builder.rowCount}; it is truncated or damaged`);

  const metadata: VariableMetadata[] = variables.map((v, j) => ({
    name: v.name,
    ...(v.label ? { label: v.label } : {}),
    valueLabels: [],
    declaredMissing: missing[j]!,
    ...(v.dates ? { dates: v.dates } : {}),
  }));
  return {
    table: builder.build(),
    format: 'sas7bdat',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    rejectedRows: [],
    rejectedRowCount: 0,
    variables: metadata,
  };
}

/** SAS pads character values with blanks (and some writers with NULs). */
function trimEnd(cell: Uint8Array): Uint8Array {
  let end = cell.length;
  while (end > 0 && (cell[end - 1] === 0x20 || cell[end - 1] === 0)) end--;
  return cell.subarray(0, end);
}

/**
 * A number of 2 to 8 bytes: an IEEE double cut short at the low end of its mantissa (LENGTH 3–7
 * in SAS). Every missing value, . and .A–.Z and ._, is a NaN.
 */
export function sasNumber(cell: Uint8Array, little: boolean): number {
  scratch.setFloat64(0, 0);
  for (let k = 0; k < cell.length; k++) {
    // Little-endian files keep the high bytes, which come last; big-endian ones keep the first.
    scratch.setUint8(little ? 8 - cell.length + k : k, cell[k]!);
  }
  return scratch.getFloat64(0, little);
}

/** One buffer for every shortened number: a file holds millions. */
const scratch = new DataView(new ArrayBuffer(8));

/**
 * A number as people write it: integers exact up to 2^53, others in the fewest digits that read
 * back the same. A shortened number carries fewer digits than a double (LENGTH 4 about 6): shown
 * to that precision, so 0.1 stored in 4 bytes is 0.1, not 0.09999990463256836.
 */
export function sasNumberText(value: number, width: number): string {
  if (width >= 8 || Number.isInteger(value)) return String(value);
  const mantissaBits = 52 - 8 * (8 - width);
  return String(Number(value.toPrecision(Math.max(1, Math.floor((mantissaBits + 1) * Math.log10(2))))));
}
