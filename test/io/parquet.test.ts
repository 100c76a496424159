import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';
import { InputError } from '../../src/io/input/input-error.js';
import type { ImportedTable } from '../../src/io/input/import-types.js';
import { MISSING_CODE } from '../../src/common/table/table.js';
import { Bytes, PageError, readHybrid } from '../../src/io/input/parquet-pages.js';
import { valueTextOf } from '../../src/io/input/parquet-values.js';
import type { SchemaElement } from 'hyparquet';
import { parquetMetadata } from 'hyparquet';
import { ByteWriter, parquetWriteBuffer } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';

/**
 * Fixtures written by DuckDB (test/fixtures/parquet/make-fixtures.mjs), with DuckDB's own text of
 * every value beside them: the reader is compared with what the writer says it wrote.
 */
const FIXTURES = 'test/fixtures/parquet';
const fixture = (name: string): string => join(FIXTURES, name);
const read = (path: string, missing: string[] = []): ImportedTable => readTable(path, { missing, onBadRow: 'error' });

/** Each row as column → value, null for a missing cell (code 0), so nulls and empty text differ. */
function rows(imported: ImportedTable): Map<string, string | null>[] {
  const { table } = imported;
  return Array.from({ length: table.rowCount }, (_, r) => new Map(table.columns.map((c) => [c.name, c.codes[r] === MISSING_CODE ? null : c.dictionary[c.codes[r]!]!])));
}

type Expected = Map<string, string | null>[];

function expectedTypes(): Expected {
  const parsed = JSON.parse(readFileSync(fixture('types.expected.json'), 'utf8')) as Record<string, string | null>[];
  return parsed.map((row) => new Map(Object.entries(row)));
}

/** DuckDB's CSV of the categories table: empty = null (no value of it is empty text). */
function expectedCategories(): Expected {
  const [header, ...lines] = readFileSync(fixture('categories.expected.csv'), 'utf8').trimEnd().split('\n');
  const names = header!.split(',');
  return lines.map((line) => new Map(line.split(',').map((v, j) => [names[j]!, v === '' ? null : v])));
}

/**
 * Doubles and floats compare as numbers (DuckDB writes 1e+300 and 42.0 where JavaScript writes
 * 1e+300 and 42); everything else as text, exactly.
 */
const NUMERIC = new Set(['ratio', 'real', 'income']);
function expectSameRows(actual: Expected, expected: Expected): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, r) => {
    const want = expected[r]!;
    expect([...row.keys()]).toEqual([...want.keys()]);
    for (const [name, value] of row) {
      const target = want.get(name)!;
      if (NUMERIC.has(name) && value !== null && target !== null) expect(Number(value), `${name} row ${r}`).toBe(Number(target));
      else expect(value, `${name} row ${r}`).toBe(target);
    }
  });
}

describe('Parquet files (written by DuckDB)', () => {
  for (const codec of ['uncompressed', 'snappy', 'gzip', 'zstd', 'brotli', 'lz4_raw']) {
    it(`${codec}: every type as DuckDB writes it, exactly (64-bit integers, decimals, dates, timestamps), nulls missing`, () => {
      const imported = read(fixture(`types-${codec}.parquet`));
      expect(imported.format).toBe('parquet');
      expectSameRows(rows(imported), expectedTypes());
      const variables = new Map((imported.variables ?? []).map((v) => [v.name, v]));
      expect(variables.get('born')!.dates).toBe('date');
      for (const name of ['seen', 'seen_utc', 'seen_ms', 'seen_ns']) expect(variables.get(name)!.dates, name).toBe('datetime');
      expect(variables.get('id')!.dates).toBeUndefined();
      // Row 3 is null in every column but id; rows 5 of the timestamps with a zone and units too.
      expect(variables.get('name')!.declaredMissing).toBe(1);
      expect(variables.get('seen_utc')!.declaredMissing).toBe(2);
      const columns = new Map(imported.table.columns.map((c) => [c.name, c]));
      expect(columns.get('born')!.type).toBe('date');
      expect(columns.get('seen')!.type).toBe('date');
      expect(columns.get('big')!.type).toBe('integer');
      expect(columns.get('amount')!.type).toBe('decimal');
    });
  }

  it('several row groups, dictionary and plain pages (v1), and the same rows as v2 pages with delta encodings', () => {
    const expected = expectedCategories();
    for (const name of ['categories.parquet', 'categories-v2.parquet']) {
      const imported = read(fixture(name));
      expect(imported.table.rowCount, name).toBe(5000);
      expectSameRows(rows(imported), expected);
      const region = imported.table.columns.find((c) => c.name === 'region')!;
      expect(region.distinct).toBe(6);
      expect(region.missing).toBe(Math.ceil(5000 / 7));
      expect(imported.variables!.find((v) => v.name === 'income')!.declaredMissing).toBe(Math.ceil(5000 / 11));
    }
  });

  it('arrow-rs (a second writer): DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and DELTA_BINARY_PACKED in v2 pages, LZ4_RAW, three row groups', () => {
    const [header, ...lines] = readFileSync(fixture('arrow-rs.expected.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as (string | null)[]);
    const expected: Expected = lines.map((row) => new Map(row.map((v, j) => [header![j]!, v])));
    const imported = read(fixture('arrow-rs.parquet'));
    expect(imported.table.rowCount).toBe(1500);
    expectSameRows(rows(imported), expected);
    // The floats exactly as the writer was given them, not only as numbers.
    expect(rows(imported).map((r) => r.get('score'))).toEqual(expected.map((r) => r.get('score')));
  });

  it("the job's missing-value codes apply as in every other reader", () => {
    const imported = read(fixture('categories.parquet'), ['Nord', '']);
    const region = imported.table.columns.find((c) => c.name === 'region')!;
    expect(region.dictionary).not.toContain('Nord');
    expect(region.distinct).toBe(5);
  });

  it('reports progress as it reads column chunks', () => {
    const seen: [number, number][] = [];
    readTable(fixture('categories.parquet'), { missing: [], onBadRow: 'error', onProgress: (done, total) => seen.push([done, total]) });
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.at(-1)![0]).toBe(seen.at(-1)![1]);
  });

  it('is known by its first bytes whatever its name, and records its SHA-256 and size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-parquet-'));
    copyFileSync(fixture('types-snappy.parquet'), join(dir, 'export.csv'));
    const imported = read(join(dir, 'export.csv'));
    expect(imported.format).toBe('parquet');
    expect(imported.bytes).toBe(readFileSync(fixture('types-snappy.parquet')).length);
    expect(imported.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a nested column (a list, a struct) is refused naming it (exit 3)', () => {
    expect(() => read(fixture('nested.parquet'))).toThrow(InputError);
    expect(() => read(fixture('nested.parquet'))).toThrow(/nested\.parquet: the column “scores” is nested \(a list\)/);
  });

  it('a truncated file, or one whose footer is damaged, is refused naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-parquet-'));
    const bytes = readFileSync(fixture('types-zstd.parquet'));
    writeFileSync(join(dir, 'cut.parquet'), bytes.subarray(0, bytes.length - 100));
    expect(() => read(join(dir, 'cut.parquet'))).toThrow(/cut\.parquet: the Parquet file is damaged/);
    const footer = Buffer.from(bytes);
    footer.writeUInt32LE(bytes.length * 2, bytes.length - 8);
    writeFileSync(join(dir, 'footer.parquet'), footer);
    expect(() => read(join(dir, 'footer.parquet'))).toThrow(/footer\.parquet: the Parquet file is damaged .*footer claims/);
    const encrypted = Buffer.from(bytes);
    encrypted.write('PARE', bytes.length - 4, 'latin1');
    writeFileSync(join(dir, 'secret.parquet'), encrypted);
    expect(() => read(join(dir, 'secret.parquet'))).toThrow(/secret\.parquet: the Parquet file is encrypted/);
  });

  it('a file declaring more cells than fit in memory (a bomb: run-length pages claim billions of values) is refused before reading', () => {
    // A small file whose footer, row group and column chunk all agree on 2^31 + 1 rows.
    const small = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'flag', data: [true], type: 'BOOLEAN' }], statistics: false }));
    const footerLength = Buffer.from(small).readUInt32LE(small.length - 8);
    const metadata = parquetMetadata(small);
    const rows = 2n ** 31n + 1n;
    metadata.num_rows = rows;
    metadata.row_groups[0]!.num_rows = rows;
    metadata.row_groups[0]!.columns[0]!.meta_data!.num_values = rows;
    const footer = new ByteWriter();
    writeMetadata(footer, metadata);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(footer.index);
    const dir = mkdtempSync(join(tmpdir(), 'custos-parquet-'));
    writeFileSync(join(dir, 'bomb.parquet'), Buffer.concat([small.subarray(0, small.length - 8 - footerLength), footer.getBytes(), length, Buffer.from('PAR1')]));
    expect(() => read(join(dir, 'bomb.parquet'))).toThrow(/bomb\.parquet: the Parquet file declares 2,147,483,649 rows × 1 columns, more cells than Custos holds/);
  });

  it('a run longer than its page (2^31 repeats in six bytes) fills the page and stops; a stream short of its values is damage', () => {
    // RLE header 2^32 (a run of 2^31, even = RLE) as a varint, then the 1-byte value 7.
    const run = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x10, 7]);
    const out = new Uint32Array(10);
    readHybrid(new Bytes(run), run.length, 3, out);
    expect([...out]).toEqual(new Array(10).fill(7));
    // Bit-packed: one group of 8 three-bit values 0..7, least significant bit first.
    const packed = new Uint8Array([0b11, 0b10001000, 0b11000110, 0b11111010]);
    const values = new Uint32Array(8);
    readHybrid(new Bytes(packed), packed.length, 3, values);
    expect([...values]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(() => readHybrid(new Bytes(packed), packed.length, 3, new Uint32Array(9))).toThrow(PageError);
  });
});

describe('Parquet value types no fixture writer here produces', () => {
  const text = (element: SchemaElement, value: unknown): string => valueTextOf(element).text(value);
  it('INT96 (Impala, Spark) timestamps, times of day, UUID, FLOAT16, unsigned integers, scaled decimals', () => {
    const days = BigInt(Date.UTC(2024, 0, 2) / 86_400_000) + 2_440_588n;
    const nanos = BigInt((3 * 3600 + 4 * 60 + 5) * 1e9 + 5e8);
    expect(text({ name: 'ts', type: 'INT96' }, (days << 64n) | nanos)).toBe('2024-01-02T03:04:05.5');
    expect(valueTextOf({ name: 'ts', type: 'INT96' }).dates).toBe('datetime');
    expect(text({ name: 't', type: 'INT64', logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: 'MICROS' } }, 49_500_250_000n)).toBe('13:45:00.25');
    expect(text({ name: 't', type: 'INT32', converted_type: 'TIME_MILLIS' }, 1_000)).toBe('00:00:01');
    expect(text({ name: 'ts', type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } }, -1n)).toBe('1969-12-31T23:59:59.999999');
    expect(text({ name: 'u', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } }, Uint8Array.from({ length: 16 }, (_, i) => i * 17))).toBe('00112233-4455-6677-8899-aabbccddeeff');
    expect(text({ name: 'h', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 2, logical_type: { type: 'FLOAT16' } }, Uint8Array.from([0x00, 0x3e]))).toBe('1.5');
    expect(text({ name: 'n', type: 'INT32', converted_type: 'UINT_32' }, -1)).toBe('4294967295');
    expect(text({ name: 'n', type: 'INT64', logical_type: { type: 'INTEGER', bitWidth: 64, isSigned: false } }, -1n)).toBe('18446744073709551615');
    expect(text({ name: 'd', type: 'BYTE_ARRAY', converted_type: 'DECIMAL', scale: 3, precision: 30 }, Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]))).toBe('-0.002');
    expect(text({ name: 'd', type: 'INT32', logical_type: { type: 'DECIMAL', scale: 2, precision: 9 } }, -5)).toBe('-0.05');
    expect(text({ name: 'd', type: 'INT32', converted_type: 'DATE' }, 100_000_000)).toBe('+275760-09-13');
    expect(text({ name: 'd', type: 'INT32', converted_type: 'DATE' }, 100_000_001)).toBe('100000001');
    expect(() => valueTextOf({ name: 'i', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 12, converted_type: 'INTERVAL' })).toThrow(/INTERVAL/);
    expect(() => text({ name: 's', type: 'BYTE_ARRAY' }, Uint8Array.from([0xff, 0xfe]))).toThrow(/UTF-8/);
  });
});
