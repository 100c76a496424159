import type { SchemaElement } from 'hyparquet';
import { lazyRequire } from '../lazy-require.js';
import { CHUNK_BYTES } from './byte-chunks.js';
import { HashedFileWriter } from './hashed-file.js';
import { xlsxText } from './neutralize.js';
import { codeBlocks, type ReleaseColumn, type CompactTable } from './release-table.js';
import { exactNumber } from './xlsx-writer.js';

/**
 * A released table as an Apache Parquet file, written with hyparquet-writer (the writer of the
 * library Custos reads Parquet with; MIT, no dependency but hyparquet) a row group at a time:
 * each block of codes becomes one row group, its values gathered from the dictionaries, so the
 * release is never held as rows. Snappy-compressed, dictionary encoding where it pays.
 *
 * Loaded on first use, like the reader (require of an ES module, Node ≥ 20.19).
 */
const writerModule = lazyRequire<typeof import('hyparquet-writer')>('hyparquet-writer');

/** How a column is stored. Text is the released text (as the workbook holds it: typed, no formula guard). */
export type ParquetColumnKind = 'int64' | 'double' | 'string';

const CANONICAL_INTEGER = /^-?(0|[1-9]\d*)$/;

/**
 * A column is stored as numbers where the workbook writes numbers (a numeric column whose every
 * value a double holds exactly) and, further, every value is written as JavaScript writes that
 * number ("1.5", not "1.50" or "+1.5"), so reading the file back gives the same text as the CSV:
 * INT64 when every value is an integer, DOUBLE otherwise. Anything else is text (UTF-8).
 */
export function parquetKind(column: ReleaseColumn): ParquetColumnKind {
  if (!column.numeric) return 'string';
  let integers = true;
  for (const value of column.dictionary) {
    if (value === '') continue;
    if (!exactNumber(value) || String(Number(value)) !== value) return 'string';
    if (integers && !CANONICAL_INTEGER.test(value)) integers = false;
  }
  return integers ? 'int64' : 'double';
}

function schemaElement(name: string, kind: ParquetColumnKind): SchemaElement {
  if (kind === 'int64') return { name, type: 'INT64', repetition_type: 'OPTIONAL' };
  if (kind === 'double') return { name, type: 'DOUBLE', repetition_type: 'OPTIONAL' };
  return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'OPTIONAL' };
}

/** A dictionary entry as the file stores it: null for the missing code (0), the value otherwise. */
function storedValues(column: ReleaseColumn, kind: ParquetColumnKind): (string | number | bigint | null)[] {
  return column.dictionary.map((value, code) => {
    if (code === 0 && value === '') return null;
    if (kind === 'int64') return value === '' ? null : BigInt(value);
    if (kind === 'double') return value === '' ? null : Number(value);
    return xlsxText(value);
  });
}

/**
 * Writes the table to `path` (created, never replaced) and returns the SHA-256 and size of the
 * bytes as they went to disk.
 */
export function writeParquet(path: string, table: CompactTable): { sha256: string; bytes: number } {
  const { ByteWriter, ParquetWriter } = writerModule();
  const kinds = table.columns.map(parquetKind);
  const stored = table.columns.map((c, j) => storedValues(c, kinds[j]!));
  const out = new HashedFileWriter(path);
  // hyparquet-writer's own file writer (fileWriter) appends with writeFileSync to a name it
  // truncates first; this one streams the same buffer into the staged, hashed file instead.
  const sink = new ByteWriter(CHUNK_BYTES * 2);
  const spill = (): void => {
    if (sink.index === 0) return;
    out.write(new Uint8Array(sink.buffer, 0, sink.index));
    sink.index = 0;
  };
  const grow = sink.ensure.bind(sink);
  sink.ensure = (size: number): void => {
    if (sink.index > CHUNK_BYTES) spill();
    grow(size);
  };
  sink.finish = spill;
  const schema: SchemaElement[] = [{ name: 'schema', num_children: table.columns.length }, ...table.columns.map((c, j) => schemaElement(c.name, kinds[j]!))];
  const writer = new ParquetWriter({ writer: sink, schema, codec: 'SNAPPY', createdBy: 'Custos' });
  try {
    for (const block of codeBlocks(table)) {
      const columnData = table.columns.map((c, j) => {
        const values = stored[j]!;
        const codes = block.codes[j]!;
        const data = new Array<string | number | bigint | null>(block.count);
        for (let i = 0; i < block.count; i++) data[i] = values[codes[i]!]!;
        return { name: c.name, data };
      });
      // Synchronous: the sink's flush returns nothing, so the writer never waits on a promise.
      void writer.write({ columnData, rowGroupSize: block.count });
    }
    void writer.finish();
  } catch (error) {
    // The partial file stays in the staging folder, which the run discards.
    out.close();
    throw error;
  }
  return out.close();
}
