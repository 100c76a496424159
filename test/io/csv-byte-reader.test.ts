import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TextEncoding } from '../../src/common/job/encoding.js';
import { ByteValueCodes } from '../../src/io/input/byte-value-codes.js';
import { HASH_SEED, hashBytes, TextPathNeeded } from '../../src/io/input/csv-byte-tokenizer.js';
import { ByteRecordReader, NotText, recordReader, TextRecordReader } from '../../src/io/input/csv-record-reader.js';
import { readCsv } from '../../src/io/input/csv-reader.js';
import { RecordRules } from '../../src/io/input/csv-records.js';
import { TableBuilder } from '../../src/io/input/table-builder.js';

/**
 * The byte reader must read every file into the table the text reader makes of it, or leave the
 * file to the text reader (TextPathNeeded), and leave it only where it has to: it never reports a
 * problem itself, and a file the text reader reads without one, it reads too.
 */

type Outcome =
  | { kind: 'table'; header: string[]; rows: string[][]; lines: number[][]; rejected: string; rowCount: number }
  | { kind: 'error'; name: string; message: string; line?: number; column?: number }
  | { kind: 'text-path'; why: string };

function read(bytes: Uint8Array, cuts: readonly number[], encoding: TextEncoding, delimiter: string, missing: readonly string[], onBadRow: 'error' | 'skip', textOnly: boolean, keepBom = false, header?: string[]): Outcome {
  let built: { builder: TableBuilder; rules: RecordRules } | undefined = header ? start(header) : undefined;
  function start(names: string[]): { builder: TableBuilder; rules: RecordRules } {
    const builder = new TableBuilder(names, missing);
    return { builder, rules: new RecordRules(builder, delimiter, onBadRow) };
  }
  try {
    const reader = recordReader(encoding, keepBom, delimiter, built ?? ((names) => (built = start(names))), textOnly);
    expect(reader).toBeInstanceOf(textOnly ? TextRecordReader : ByteRecordReader);
    let at = 0;
    for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
      // The caller reuses its buffer: a copy the reader must not keep.
      const piece = bytes.slice(at, cut);
      reader.feed(piece, false);
      piece.fill(0x78);
      at = cut;
    }
    reader.feed(bytes.slice(at), true);
    expect(reader.atRecordStart).toBe(true);
  } catch (error) {
    if (error instanceof TextPathNeeded) return { kind: 'text-path', why: error.why };
    const e = error as Error & { line?: number; column?: number };
    return { kind: 'error', name: e instanceof NotText ? 'NotText' : e.constructor.name, message: e.message, ...(e.line !== undefined ? { line: e.line } : {}), ...(e.column !== undefined ? { column: e.column } : {}) };
  }
  if (!built) return { kind: 'table', header: [], rows: [], lines: [], rejected: '', rowCount: 0 };
  const table = built.builder.build();
  const rows = Array.from({ length: table.rowCount }, (_, r) => table.columns.map((c) => c.dictionary[c.codes[r]!]!));
  return {
    kind: 'table',
    header: table.columns.map((c) => c.name),
    rows,
    // Codes too: the dictionaries must be in the same order, not only hold the same values.
    lines: [...built.builder.firstLines().map((l) => [...l]), ...table.columns.map((c) => [...c.codes])],
    rejected: JSON.stringify(built.rules.rejected),
    rowCount: built.rules.rejectedCount,
  };
}

function sameOutcome(bytes: Uint8Array, cuts: readonly number[], encoding: TextEncoding, delimiter: string, missing: readonly string[], onBadRow: 'error' | 'skip', keepBom = false, header?: string[]): { text: Outcome; byte: Outcome } {
  const text = read(bytes, cuts, encoding, delimiter, missing, onBadRow, true, keepBom, header);
  const byte = read(bytes, cuts, encoding, delimiter, missing, onBadRow, false, keepBom, header);
  if (byte.kind === 'text-path') {
    // Only where the text reader finds the file malformed or not text.
    expect(text.kind, `byte reader left a file the text reader read (${byte.why})`).toBe('error');
    if (text.kind === 'error') expect(['CsvSyntaxError', 'NotText']).toContain(text.name);
  } else expect(byte).toEqual(text);
  return { text, byte };
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A field as a person's file holds it: plain, quoted, quoted with doubled quotes or line breaks, empty. */
const field = fc.oneof(
  fc.constantFrom('', 'a', 'b', 'NA', 'é', '😀', ' a ', '\uFEFF', 'x"y', 'München'),
  fc.stringMatching(/^[abé\d ]{0,6}$/),
  fc.string({ unit: fc.constantFrom('a', ',', ';', '"', '\n', '\r', 'é', '😀'), maxLength: 6 }).map((s) => `"${s.replaceAll('"', '""')}"`),
);
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
const csvText = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.array(fc.tuple(fc.array(field, { minLength: 0, maxLength: 5 }), lineEnd), { maxLength: 12 }), fc.boolean(), fc.boolean())
  .map(([width, records, bom, endsWithBreak]) => {
    const header = Array.from({ length: width }, (_, j) => `c${j}`).join(',');
    const body = records.map(([fields, end]) => fields.join(',') + end).join('');
    const text = `${bom ? '\uFEFF' : ''}${header}\n${body}`;
    return endsWithBreak ? text : text.replace(/(\r\n|\n|\r)$/, '');
  });
/** Cut points anywhere, inside a character, between CR and LF, inside quotes. */
const cutsOf = (length: number): fc.Arbitrary<number[]> => fc.array(fc.integer({ min: 0, max: Math.max(0, length) }), { maxLength: 6 });

describe('the byte reader reads what the text reader reads', () => {
  it('records of every shape, read in any cuts: the same table, rejections, lines and errors', () => {
    let tables = 0;
    fc.assert(
      fc.property(
        csvText.chain((text) => fc.tuple(fc.constant(text), cutsOf(utf8(text).length))),
        fc.constantFrom<'error' | 'skip'>('error', 'skip'),
        fc.constantFrom<readonly string[]>([''], ['', 'NA'], ['a']),
        ([text, cuts], onBadRow, missing) => {
          const { byte } = sameOutcome(utf8(text), cuts, 'utf-8', ',', missing, onBadRow);
          if (byte.kind === 'table') tables++;
        },
      ),
      { seed: 20261129, numRuns: 600 },
    );
    // The generator must make readable files, or the property says little.
    expect(tables).toBeGreaterThan(300);
  });

  it('any text at all, malformed included: the byte reader agrees or leaves it to the text reader', () => {
    const anyText = fc.string({ unit: fc.constantFrom('a', ';', '"', '\n', '\r', 'é', ' ', '\uFEFF'), maxLength: 40 });
    fc.assert(
      fc.property(
        anyText.chain((text) => fc.tuple(fc.constant(text), cutsOf(utf8(text).length))),
        fc.constantFrom<'error' | 'skip'>('error', 'skip'),
        ([text, cuts], onBadRow) => {
          sameOutcome(utf8(text), cuts, 'utf-8', ';', [''], onBadRow);
        },
      ),
      { seed: 7, numRuns: 1500 },
    );
  });

  it('a part read by the second thread (header given, a leading U+FEFF kept)', () => {
    fc.assert(
      fc.property(csvText.chain((text) => fc.tuple(fc.constant(text.replace(/^[^\n]*\n/, '')), cutsOf(utf8(text).length))), ([text, cuts]) => {
        sameOutcome(utf8(`\uFEFF${text}`), cuts, 'utf-8', ',', [''], 'skip', true, ['c0', 'c1']);
      }),
      { seed: 3, numRuns: 300 },
    );
  });

  it('Windows-1252 bytes, every one of 0x80–0xFF: the same values as the text reader decodes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.uint8Array({ minLength: 0, maxLength: 4 }).map((b) => b.map((x) => (x === 0x2c || x === 0x22 || x === 0x0a || x === 0x0d ? 0x80 + (x & 0x7f) : x))), { minLength: 2, maxLength: 2 }), { maxLength: 10 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 4 }),
        (records, cuts) => {
          const parts: number[] = [...utf8('x,y\n')];
          for (const [a, b] of records) parts.push(...a!, 0x2c, ...b!, 0x0a);
          const { byte } = sameOutcome(Uint8Array.from(parts), cuts, 'windows-1252', ',', [''], 'error');
          expect(byte.kind).toBe('table');
        },
      ),
      { seed: 11, numRuns: 300 },
    );
  });

  it('bytes that are not UTF-8 are left to the text reader, wherever the read is cut, whatever ends the lines', () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const bytes = Uint8Array.from([...utf8(`a,b${end}1,2${end}x,`), 0xc3, 0x28, ...utf8(`${end}3,4${end}`)]);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const { text, byte } = sameOutcome(bytes, [cut], 'utf-8', ',', [''], 'error');
        expect(text).toMatchObject({ kind: 'error', name: 'NotText' });
        expect(byte).toMatchObject({ kind: 'text-path', why: 'bytes that are not UTF-8' });
      }
    }
  });

  it('bytes that are not UTF-8 after the last line break of a read are found before a bad row earlier in it, as the text reader finds them', () => {
    const bytes = Uint8Array.from([...utf8('a,b\n1,2,3\nx,'), 0xff, ...utf8('y\n')]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { text, byte } = sameOutcome(bytes, [cut], 'utf-8', ',', [''], 'error');
      if (text.kind === 'error' && text.name === 'NotText') expect(byte).toMatchObject({ kind: 'text-path', why: 'bytes that are not UTF-8' });
    }
    // A read ending inside a character is not an error: the next read completes it.
    const euro = utf8('a,b\n1,€\n');
    for (let cut = 0; cut <= euro.length; cut++) expect(sameOutcome(euro, [cut], 'utf-8', ',', [''], 'error').byte.kind).toBe('table');
  });

  it('a file of thousands of columns keeps no value caches and reads the same', () => {
    const width = 3000;
    const header = Array.from({ length: width }, (_, j) => `c${j}`).join(',');
    const rows = Array.from({ length: 3 }, (_, r) => Array.from({ length: width }, (_, j) => `${(r * j) % 5}`).join(','));
    const { byte } = sameOutcome(utf8(`${header}\n${rows.join('\n')}\n`), [10_000], 'utf-8', ',', [''], 'error');
    expect(byte.kind).toBe('table');
  });

  it('a record longer than one read is left to the text reader, which reads it', () => {
    const long = 'z'.repeat(5 << 20);
    const bytes = utf8(`a,b\n1,${long}\n2,3\n`);
    const { text, byte } = { text: read(bytes, [1 << 20, 2 << 20, 3 << 20, 4 << 20, 5 << 20], 'utf-8', ',', [''], 'error', true), byte: read(bytes, [1 << 20, 2 << 20, 3 << 20, 4 << 20, 5 << 20], 'utf-8', ',', [''], 'error', false) };
    expect(byte).toEqual({ kind: 'text-path', why: 'a record longer than one read' });
    expect(text).toMatchObject({ kind: 'table', rows: [['1', long], ['2', '3']] });
  });
});

describe('ByteValueCodes', () => {
  it('answers by the bytes, not the hash: values whose hashes collide keep their own codes', () => {
    const known = new ByteValueCodes();
    const values = ['a', 'ab', 'b', '', 'abc', 'ba', 'é'].map(utf8);
    // One hash for all: every lookup must compare lengths and bytes.
    values.forEach((v, code) => {
      expect(known.lookup(v, 0, v.length, 42)).toBe(-1);
      known.remember(v, 0, v.length, 42, code);
    });
    values.forEach((v, code) => expect(known.lookup(v, 0, v.length, 42)).toBe(code));
    const inside = utf8('xxabyy');
    expect(known.lookup(inside, 2, 4, 42)).toBe(1);
  });

  it('hashes from a basis of its own, not FNV-1a’s published one (a file of colliding values cannot be made in advance)', () => {
    expect(HASH_SEED).not.toBe(0x811c9dc5 | 0);
    const standard = (bytes: Uint8Array): number => bytes.reduce((h, b) => Math.imul(h ^ b, 0x01000193), 0x811c9dc5 | 0);
    expect(hashBytes(utf8('abc'), 0, 3)).not.toBe(standard(utf8('abc')));
  });

  it('many values: found again after the table grows; the hash of the bytes finds them', () => {
    const known = new ByteValueCodes();
    const bytes = Array.from({ length: 5000 }, (_, k) => utf8(`v${k}`));
    bytes.forEach((v, code) => known.remember(v, 0, v.length, hashBytes(v, 0, v.length), code));
    bytes.forEach((v, code) => expect(known.lookup(v, 0, v.length, hashBytes(v, 0, v.length))).toBe(code));
    expect(known.lookup(utf8('v5000'), 0, 5, hashBytes(utf8('v5000'), 0, 5))).toBe(-1);
  });
});

describe('a column of mostly distinct values', () => {
  it('is not worth keeping once most lookups were new; a column of few values is', () => {
    const distinct = new ByteValueCodes();
    const few = new ByteValueCodes();
    let gaveUpAt = -1;
    for (let k = 0; k < 80_000 && gaveUpAt < 0; k++) {
      const v = utf8(`id${k}`);
      const h = hashBytes(v, 0, v.length);
      expect(distinct.lookup(v, 0, v.length, h)).toBe(-1);
      if (!distinct.remember(v, 0, v.length, h, k + 1)) gaveUpAt = k;
      const w = utf8(`v${k % 50}`);
      const hw = hashBytes(w, 0, w.length);
      if (few.lookup(w, 0, w.length, hw) < 0) expect(few.remember(w, 0, w.length, hw, k + 1)).toBe(true);
    }
    // The first window of 16,384 look-ups only fills the cache; the second, all new again, ends it.
    expect(gaveUpAt).toBe((1 << 15) - 1);
  });

  it('a column whose values are all met in the first window stays, however many they were', () => {
    const known = new ByteValueCodes();
    for (let k = 0; k < 100_000; k++) {
      const v = utf8(`postcode${k % 6000}`);
      const h = hashBytes(v, 0, v.length);
      if (known.lookup(v, 0, v.length, h) < 0) expect(known.remember(v, 0, v.length, h, (k % 6000) + 1)).toBe(true);
      else expect(known.lookup(v, 0, v.length, h)).toBe((k % 6000) + 1);
    }
  });

  it('a column where a third of the values keep being new is given up after its second window', () => {
    const known = new ByteValueCodes();
    let gaveUpAt = -1;
    for (let k = 0; k < 60_000 && gaveUpAt < 0; k++) {
      const fresh = k % 3 === 0;
      const v = utf8(fresh ? `new${k}` : `old${k % 7}`);
      const h = hashBytes(v, 0, v.length);
      if (known.lookup(v, 0, v.length, h) < 0 && !known.remember(v, 0, v.length, h, k + 1)) gaveUpAt = k;
    }
    expect(gaveUpAt).toBeGreaterThanOrEqual(1 << 15);
    expect(gaveUpAt).toBeLessThan((1 << 15) + 10);
  });

  it('reads into the same table as the text reader, identifiers beside repeated and quoted values', () => {
    const rows = Array.from({ length: 40_000 }, (_, r) => `P${r},${r % 9},"q ""${r % 4}""",${r % 3 === 0 ? '' : `t${(r * 7919) % 30_011}`}`);
    const bytes = utf8(`id,n,q,t\n${rows.join('\n')}\n`);
    const cuts = [100_000, 250_001, 400_003];
    const { byte } = sameOutcome(bytes, cuts, 'utf-8', ',', [''], 'error');
    expect(byte).toMatchObject({ kind: 'table' });
    if (byte.kind === 'table') {
      expect(byte.rows[39_999]).toEqual(['P39999', '3', 'q "3"', '']);
      expect(byte.rows[39_998]).toEqual(['P39998', '2', 'q "2"', `t${(39_998 * 7919) % 30_011}`]);
    }
  });
});

describe('readCsv with the byte reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-csv-bytes-'));
  const file = (name: string, content: string | Uint8Array): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('a file the byte reader leaves half-way is read again by the text reader from its start, with the same checksum and messages', () => {
    const rows = Array.from({ length: 2000 }, (_, r) => `${r % 7},"v""${r % 5}"`).join('\n');
    const good = file('good.csv', `a,b\n${rows}\n`);
    const unclosed = file('unclosed.csv', `a,b\n${rows}\n9,"never closed\n`);
    const read = readCsv(good, { missing: [''], onBadRow: 'error' });
    expect(read.table.rowCount).toBe(2000);
    expect(read.table.columns[1]!.dictionary).toEqual(['', 'v"0', 'v"1', 'v"2', 'v"3', 'v"4']);
    expect(() => readCsv(unclosed, { missing: [''], onBadRow: 'error' })).toThrow(/a quoted field is never closed/);
    try {
      readCsv(unclosed, { missing: [''], onBadRow: 'error' });
    } catch (error) {
      expect(error).toMatchObject({ line: 2002, column: 2 });
    }
  });

  it('Windows-1252 after UTF-8 fails deep in the file: the same table as declared Windows-1252', () => {
    const head = utf8(`name,n\n${Array.from({ length: 3000 }, (_, r) => `r${r % 13},${r % 3}`).join('\n')}\n`);
    const bytes = Uint8Array.from([...head, 0x4d, 0xfc, 0x6e, 0x63, 0x68, 0x65, 0x6e, 0x2c, 0x31, 0x0a]);
    const path = file('cp1252.csv', bytes);
    const guessed = readCsv(path, { missing: [''], onBadRow: 'error' });
    const declared = readCsv(path, { missing: [''], onBadRow: 'error', encoding: 'windows-1252' });
    expect(guessed.encoding).toBe('windows-1252');
    expect(guessed.table.columns[0]!.dictionary).toEqual(declared.table.columns[0]!.dictionary);
    expect(guessed.table.columns[0]!.dictionary).toContain('München');
    expect(guessed.sha256).toBe(declared.sha256);
  });
});
