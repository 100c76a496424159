import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/input/input-error.js';
import { readTable } from '../../src/io/input/read-table.js';
import type { ImportedTable } from '../../src/io/input/import-types.js';

/**
 * Dictionaries crafted so that what they declare costs far more than their bytes: each must be
 * read in time and memory in proportion to the file, or refused naming the file and the record.
 * The bytes are made here, small, rather than kept as fixtures.
 */
const dir = mkdtempSync(join(tmpdir(), 'custos-crafted-'));

function write(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const read = (path: string): ImportedTable => readTable(path, { missing: [''], onBadRow: 'error' });

function refusal(path: string): InputError {
  try {
    read(path);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error(`${path} was read`);
}

const int32s = (...values: number[]): Buffer => Buffer.from(new Int32Array(values).buffer);

/** An uncompressed little-endian SPSS system file: its header, dictionary records, then the data. */
function sav(cases: number, records: Buffer[], data: Buffer): Buffer {
  const header = Buffer.alloc(176, 0x20);
  header.write('$FL2', 0, 'latin1');
  header.writeInt32LE(2, 64); // layout code: little-endian
  header.writeInt32LE(-1, 68);
  header.writeInt32LE(0, 72); // uncompressed
  header.writeInt32LE(0, 76);
  header.writeInt32LE(cases, 80);
  header.writeDoubleLE(100, 84);
  return Buffer.concat([header, ...records, int32s(999, 0), data]);
}

/** A numeric variable record (type 2) with no label and no missing values. */
function numeric(name: string): Buffer {
  const record = Buffer.alloc(32, 0x20);
  record.set(int32s(2, 0, 0, 0, 0x050802, 0x050802), 0);
  record.write(name.padEnd(8), 24, 'latin1');
  return record;
}

/** A value label record (type 3) of the codes 0..count-1, each labelled "A", and its variables (type 4). */
function labelSet(count: number, elements: number[]): Buffer {
  const labels = Buffer.alloc(count * 16, 0x20);
  for (let i = 0; i < count; i++) {
    labels.writeDoubleLE(i, i * 16);
    labels[i * 16 + 8] = 1;
    labels[i * 16 + 9] = 0x41;
  }
  return Buffer.concat([int32s(3, count), labels, int32s(4, elements.length, ...elements.map((e) => e + 1))]);
}

const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `V${i.toString(36)}`);
const ones = (n: number): Buffer => Buffer.from(new Float64Array(n).fill(1).buffer);

describe('crafted SPSS dictionaries', () => {
  it('a label set of thousands of labels for thousands of variables is read in proportion to its bytes', () => {
    const n = 3000;
    const path = write('labels.sav', sav(1, [...names(n).map(numeric), labelSet(n, [...Array(n).keys()])], ones(n)));
    const started = performance.now();
    const imported = read(path);
    // Copied into each variable, the labels cost 9 million entries (seconds, about a gigabyte).
    expect(performance.now() - started).toBeLessThan(2000);
    expect(imported.table.columns).toHaveLength(n);
    expect(imported.variables?.[n - 1]?.valueLabels).toEqual([{ code: '1', label: 'A' }]);
  });

  it('overlapping label sets that would copy over a million labels are refused naming the file', () => {
    const n = 1100;
    const all = [...Array(n).keys()];
    const path = write('overlapping.sav', sav(1, [...names(n).map(numeric), labelSet(1000, all), labelSet(1000, all)], ones(n)));
    expect(refusal(path).message).toMatch(/^overlapping\.sav: .*more than 1,000,000 value labels from overlapping label sets/);
  });

  it('a very long string named again and again in record 7.14 is refused, not given millions of segments', () => {
    const vars = names(200);
    const record = Buffer.from(`${vars[0]}=32767\0\t`.repeat(20_000), 'latin1');
    const path = write('very-long.sav', sav(1, [...vars.map(numeric), int32s(7, 14, 1, record.length), record], ones(200)));
    expect(refusal(path).message).toBe('very-long.sav: the SPSS file names the very long string V0 twice in its record of very long strings; it is damaged');
  });
});

/** A Stata 114 file of one long variable x labelled by the set "lab", one observation, then that set's table. */
function dta114(count: number, offsets: (i: number) => number, texts: Buffer): Buffer {
  const header = Buffer.alloc(4 + 2 + 4 + 81 + 18);
  header.set([114, 2, 1, 0]); // release, little-endian, file type
  header.writeUInt16LE(1, 4);
  header.writeUInt32LE(1, 6);
  const field = (width: number, text: string): Buffer => {
    const b = Buffer.alloc(width);
    b.write(text, 'latin1');
    return b;
  };
  const table = Buffer.alloc(8 + count * 8);
  table.writeUInt32LE(count, 0);
  table.writeUInt32LE(texts.length, 4);
  for (let i = 0; i < count; i++) {
    table.writeUInt32LE(offsets(i), 8 + 4 * i);
    table.writeInt32LE(i, 8 + 4 * count + 4 * i);
  }
  const setHeader = Buffer.alloc(40);
  setHeader.writeUInt32LE(table.length + texts.length, 0);
  setHeader.write('lab', 4, 'latin1');
  return Buffer.concat([
    header,
    Buffer.from([253]), // long
    field(33, 'x'),
    Buffer.alloc(4), // sort list
    field(49, '%9.0g'),
    field(33, 'lab'),
    Buffer.alloc(81),
    Buffer.alloc(5), // no expansion fields
    int32s(1),
    setHeader,
    table,
    texts,
  ]);
}

describe('crafted Stata value labels', () => {
  it('label texts that overlap (each value decoding most of the text again) are refused naming the file and the set', () => {
    const textLength = 100_000;
    const path = write('overlap.dta', dta114(5000, (i) => i, Buffer.alloc(textLength, 0x41)));
    expect(refusal(path).message).toBe('overlap.dta: the value labels "lab" of the Stata file have texts that overlap (the table holds 100,000 bytes of text); it is damaged');
  });

  it('values that share one text are read', () => {
    const path = write('shared.dta', dta114(3, () => 0, Buffer.from('one\0', 'latin1')));
    expect(read(path).variables?.[0]?.valueLabels).toEqual([{ code: '1', label: 'one' }]);
  });
});

/**
 * people-64.sas7bdat (u64, little-endian, pages of 4,096 bytes) with its first page enlarged to
 * `pageLength` bytes: its 14 subheaders moved to the page's end, and before them one column-name
 * subheader of `nameLength` bytes that `pointers` more pointers all point at.
 */
function sharedSubheader(pageLength: number, nameLength: number, pointers: number): Buffer {
  const source = readFileSync('test/fixtures/sas/sas7bdat/people-64.sas7bdat');
  const headerLength = 8192;
  const oldLength = 4096;
  const firstSubheader = 2188;
  const header = Buffer.from(source.subarray(0, headerLength));
  header.writeUInt32LE(pageLength, 200);
  const page = Buffer.alloc(pageLength);
  source.copy(page, 0, headerLength, headerLength + 40);
  const shift = pageLength - oldLength;
  source.copy(page, shift + firstSubheader, headerLength + firstSubheader, headerLength + oldLength);
  for (let i = 0; i < 14; i++) {
    const pointer = 40 + i * 24;
    source.copy(page, pointer, headerLength + pointer, headerLength + pointer + 24);
    page.writeBigUInt64LE(source.readBigUInt64LE(headerLength + pointer) + BigInt(shift), pointer);
  }
  const shared = shift + firstSubheader - nameLength;
  page.writeUInt32LE(0xffffffff, shared); // the column name signature
  page.writeUInt32LE(0xffffffff, shared + 4);
  for (let k = 0; k < pointers; k++) {
    const pointer = 40 + (14 + k) * 24;
    page.writeBigUInt64LE(BigInt(shared), pointer);
    page.writeBigUInt64LE(BigInt(nameLength), pointer + 8);
  }
  page.writeUInt16LE(14 + pointers, 34); // blocks
  page.writeUInt16LE(14 + pointers, 36); // subheaders
  const dataPage = Buffer.alloc(pageLength);
  source.copy(dataPage, 0, headerLength + oldLength, headerLength + 2 * oldLength);
  return Buffer.concat([header, page, dataPage]);
}

describe('crafted SAS data set pages', () => {
  it('pointers that share one subheader (read again for each) are refused naming the file and the page', () => {
    const path = write('shared.sas7bdat', sharedSubheader(16_384, 8_000, 100));
    expect(refusal(path).message).toBe('shared.sas7bdat: the subheaders of a page of the SAS data set (at byte 8192) overlap, together longer than the page; the file is damaged');
  });

  it('the same page without the shared pointers is read', () => {
    const imported = read(write('enlarged.sas7bdat', sharedSubheader(16_384, 8_000, 0)));
    expect([imported.table.rowCount, imported.table.columns.length]).toEqual([5, 9]);
  });
});

describe('long padded values', () => {
  it('an SPSS long string value label of 50,000 blanks before a letter is read in proportion to its length', () => {
    // Record 7.21: the variable's name, its width, one label whose value is the long text.
    const value = Buffer.from(`${' '.repeat(50_000)}x`, 'latin1');
    const record = Buffer.concat([int32s(2), Buffer.from('S1', 'latin1'), int32s(300, 1, value.length), value, int32s(1), Buffer.from('L', 'latin1')]);
    const stringVariable = Buffer.alloc(32, 0x20);
    stringVariable.set(int32s(2, 16, 0, 0, 0x011000, 0x011000), 0);
    stringVariable.write('S1'.padEnd(8), 24, 'latin1');
    const continuation = Buffer.alloc(32, 0x20);
    continuation.set(int32s(2, -1, 0, 0, 0, 0), 0);
    const path = write('long-label.sav', sav(1, [stringVariable, continuation, int32s(7, 21, 1, record.length), record], Buffer.from('abcdefghijklmnop', 'latin1')));
    const started = performance.now();
    expect(read(path).table.columns).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a SAS data set text of 50,000 undecodable bytes before a letter is decoded in proportion to its length', async () => {
    const { sasTextDecoder } = await import('../../src/io/input/sas7bdat-text.js');
    // SAS code 140 is EUC-KR: a multi-byte encoding decoded leniently, cut characters becoming U+FFFD.
    const decode = sasTextDecoder(140);
    if (typeof decode !== 'function') throw new Error(decode.refused);
    const started = performance.now();
    expect(decode(Buffer.concat([Buffer.alloc(50_000, 0xff), Buffer.from('x')])).endsWith('\ufffdx')).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

/** A SAS transport (v5) file of one data set: its variables (numeric when `numeric`), then the observations. */
function xpt(variables: { name: string; length: number; position: number; numeric?: boolean }[], data: Buffer): Buffer {
  const record = (text: string): Buffer => {
    const b = Buffer.alloc(80, 0x20);
    b.write(text, 'latin1');
    return b;
  };
  const namestrs = Buffer.alloc(Math.ceil((variables.length * 140) / 80) * 80, 0x20);
  variables.forEach((v, i) => {
    const at = i * 140;
    namestrs.fill(0, at, at + 140);
    namestrs.writeInt16BE(v.numeric ? 1 : 2, at);
    namestrs.writeInt16BE(v.length, at + 4);
    namestrs.writeInt16BE(i + 1, at + 6);
    namestrs.write(v.name.padEnd(8), at + 8, 'latin1');
    namestrs.write(' '.repeat(48), at + 16, 'latin1'); // label and format
    namestrs.writeInt32BE(v.position, at + 84);
  });
  return Buffer.concat([
    record('HEADER RECORD*******LIBRARY HEADER RECORD!!!!!!!000000000000000000000000000000'),
    record('SAS     SAS     SASLIB  9.4'),
    record(''),
    record('HEADER RECORD*******MEMBER  HEADER RECORD!!!!!!!000000000000000001600000000140'),
    record('HEADER RECORD*******DSCRPTR HEADER RECORD!!!!!!!000000000000000000000000000000'),
    record('SAS     DATA    SASDATA 9.4'),
    record(''),
    record(`HEADER RECORD*******NAMESTR HEADER RECORD!!!!!!!000000${String(variables.length).padStart(4, '0')}00000000000000000000`),
    namestrs,
    record('HEADER RECORD*******OBS     HEADER RECORD!!!!!!!000000000000000000000000000000'),
    data,
  ]);
}

describe('crafted SAS variable layouts', () => {
  it('SAS transport variables that share bytes (each decoding one wide field again) are refused naming them', () => {
    // 2,000 variables over one field of 10,000 bytes: 20 MB decoded per observation from 290 KB.
    const variables = Array.from({ length: 2000 }, (_, i) => ({ name: `V${i}`, length: 10_000, position: 0 }));
    const path = write('overlap.xpt', xpt(variables, Buffer.alloc(10_000 * 3, 0x41)));
    expect(refusal(path).message).toBe('overlap.xpt: variables V0 and V1 of the SAS transport file share bytes of an observation; it is damaged');
  });

  it('a SAS transport variable of no bytes is refused naming it', () => {
    const path = write('empty.xpt', xpt([{ name: 'A', length: 8, position: 0, numeric: true }, { name: 'B', length: -4, position: 8 }], Buffer.alloc(80, 0x20)));
    expect(refusal(path).message).toBe('empty.xpt: variable B of the SAS transport file declares -4 bytes at byte 8 of an observation; it is damaged');
  });

  it('side-by-side SAS transport variables are read', () => {
    const cells = Buffer.concat([Buffer.from('abc', 'latin1'), Buffer.from([0x41, 0x10, 0, 0, 0, 0, 0, 0])]);
    const imported = read(write('side-by-side.xpt', xpt([{ name: 'A', length: 3, position: 0 }, { name: 'B', length: 8, position: 3, numeric: true }], cells)));
    expect([imported.table.rowCount, imported.table.columns.map((c) => c.name)]).toEqual([1, ['A', 'B']]);
  });

  it('SAS data set variables that share bytes of a row are refused naming them', () => {
    const bytes = Buffer.from(readFileSync('test/fixtures/sas/sas7bdat/people-64.sas7bdat'));
    // The column attributes subheader (at 2764 in the first page, after the 8,192-byte header):
    // each variable's offset in the row is an 8-byte word 16 bytes after the previous one's.
    const first = 8192 + 2764 + 16;
    bytes.writeBigUInt64LE(bytes.readBigUInt64LE(first), first + 16);
    expect(refusal(write('overlap.sas7bdat', bytes)).message).toMatch(/^overlap\.sas7bdat: variables \S+ and \S+ of the SAS data set share bytes of a row; it is damaged$/);
  });
});
