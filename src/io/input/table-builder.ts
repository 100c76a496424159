import { GrowableCodes, type CompactCodes } from '../../common/table/growable.js';
import { makeColumn, MISSING_CODE, type Table } from '../../common/table/table.js';
import { MAX_CELLS, MAX_COLUMNS, TableTooLargeError, TextBudget } from './table-limits.js';

/** A builder's columns as plain arrays: they cross to another thread and back. */
export interface BuiltParts {
  readonly rowCount: number;
  /** In the narrowest width that holds them (GrowableCodes): the part crosses threads and waits to be appended. */
  readonly codes: readonly CompactCodes[];
  readonly dictionaries: readonly (readonly string[])[];
  /** The line each value was first met on, per column and code (0: not known); see firstLines. */
  readonly lines: readonly (readonly number[])[];
}

/** Dictionary-encodes records column by column as they stream in. */
export class TableBuilder {
  // One byte a code while the dictionary has at most 256 entries, two up to 65,536: the codes are most of a large file's memory while it is read.
  private readonly codes: GrowableCodes[];
  private readonly dictionaries: string[][];
  private readonly indexes: Map<string, number>[];
  private readonly lines: number[][];
  rowCount = 0;

  constructor(
    readonly header: readonly string[],
    missing: readonly string[],
    /** Tests lower them; readers keep the defaults. */
    private readonly maxCells = MAX_CELLS,
    private readonly text = new TextBudget(),
  ) {
    if (header.length > MAX_COLUMNS) throw TableTooLargeError.columns(header.length);
    // Small to start: a wide file with few rows must cost memory in proportion to its cells, not its columns.
    this.codes = header.map(() => new GrowableCodes(16));
    this.dictionaries = header.map(() => ['']);
    this.lines = header.map(() => [0]);
    // Missing-value tokens share the lookup with real values and map to code 0.
    this.indexes = header.map(() => new Map(missing.map((token) => [token, 0])));
  }

  /** A record; `line` is where the file holds it (its first line), for naming a value later. */
  add(fields: readonly string[], line = 0): void {
    this.checkRoom();
    for (let j = 0; j < this.header.length; j++) this.codes[j]!.push(this.codeOf(j, fields[j]!, line));
    this.rowCount++;
  }

  /** Throws when one more record would pass the table's cells: before any of its values is added. */
  checkRoom(): void {
    if ((this.rowCount + 1) * this.header.length > this.maxCells) throw TableTooLargeError.cells(this.rowCount, this.header.length);
  }

  /**
   * The code of a value of column j, added to the column's dictionary when new (`line` is where it
   * was met). The byte reader asks it once per distinct value, after checkRoom, and adds the record
   * with addCodes: the dictionaries are then those `add` makes.
   */
  codeOf(j: number, value: string, line: number): number {
    const index = this.indexes[j]!;
    let code = index.get(value);
    if (code === undefined) {
      this.text.spend(value.length);
      const dictionary = this.dictionaries[j]!;
      code = dictionary.length;
      dictionary.push(value);
      index.set(value, code);
      this.lines[j]!.push(line);
    }
    return code;
  }

  /** A record as its columns' codes (codeOf's), after checkRoom. */
  addCodes(codes: Int32Array): void {
    for (let j = 0; j < this.header.length; j++) this.codes[j]!.push(codes[j]!);
    this.rowCount++;
  }

  /** The codes and dictionaries as read so far, for another builder to append (the second thread's part of a file). */
  parts(): BuiltParts {
    return { rowCount: this.rowCount, codes: this.codes.map((c) => c.toCompact()), dictionaries: this.dictionaries, lines: this.lines };
  }

  /**
   * Appends the records another builder read from the rest of the file. Its codes are mapped to
   * this builder's: its values new here are added in the order it met them, so the dictionaries
   * and codes are exactly those of one builder reading the whole file.
   */
  append(parts: BuiltParts): void {
    if ((this.rowCount + parts.rowCount) * this.header.length > this.maxCells) throw TableTooLargeError.cells(this.rowCount, this.header.length);
    for (let j = 0; j < this.header.length; j++) {
      const index = this.indexes[j]!;
      const dictionary = this.dictionaries[j]!;
      const theirs = parts.dictionaries[j]!;
      const theirLines = parts.lines[j]!;
      const mapped = new Uint32Array(theirs.length);
      // Code 0 is missing in both, whatever tokens were read as missing.
      for (let code = 1; code < theirs.length; code++) {
        const value = theirs[code]!;
        let ours = index.get(value);
        if (ours === undefined) {
          this.text.spend(value.length);
          ours = dictionary.length;
          dictionary.push(value);
          index.set(value, ours);
          this.lines[j]!.push(theirLines[code] ?? 0);
        }
        mapped[code] = ours;
      }
      this.codes[j]!.pushMapped(parts.codes[j]!, mapped);
    }
    this.rowCount += parts.rowCount;
  }

  /**
   * The line of the file each value of each column was first met on (by code; 0 where the reader
   * gives no lines): a value refused after reading (a date that does not fit its column's format)
   * is named where an editor shows it.
   */
  firstLines(): Uint32Array[] {
    return this.lines.map((l) => Uint32Array.from(l));
  }

  build(): Table {
    const columns = this.header.map((name, j) => makeColumn(name, this.codes[j]!.toArray(true), this.dictionaries[j]!, this.codes[j]!.countOf(MISSING_CODE)));
    return { rowCount: this.rowCount, columns };
  }
}

/** A header name that was empty or taken, and the name the column is read under. */
export interface RenamedColumn {
  /** The column's position, from 1. */
  readonly column: number;
  /** The name as the header gave it (trimmed): '' when it gave none. */
  readonly from: string;
  readonly to: string;
}

/**
 * The names a delimited file's or a sheet's columns are read under. Every later message, the job
 * file and the release name columns by them, so they must be present and unique: a column the
 * header gives no name (what pandas' to_csv writes over its index) is named `column_<n>` after its
 * position, and a name the header repeats keeps it for its first column while each later one is
 * `<name>_2`, `<name>_3`, …. A name so made never takes one the header itself gives any column
 * (the suffix counts on instead), so the header's own names keep their meaning. The rule depends on
 * the header alone: the wizard, `custos inspect`, `init`, `run` and `verify --original` read the
 * same file under the same names. Every renamed column is listed, for the warning.
 */
export function nameColumns(header: readonly string[]): { readonly names: string[]; readonly renamed: RenamedColumn[] } {
  const trimmed = header.map((h) => h.trim());
  const given = new Set(trimmed.filter((name) => name !== ''));
  const used = new Set<string>();
  const names: string[] = [];
  const renamed: RenamedColumn[] = [];
  // The next suffix to try per name: counting from 2 again for each repeat cost repeats × suffixes
  // taken (a 340 KB header of 25,000 "a" beside "a_2" … "a_25001" ran for minutes).
  const nextSuffix = new Map<string, number>();
  for (let j = 0; j < trimmed.length; j++) {
    const name = trimmed[j]!;
    if (name !== '' && !used.has(name)) {
      used.add(name);
      names.push(name);
      continue;
    }
    const base = name === '' ? `column_${j + 1}` : name;
    let to = name === '' && !given.has(base) && !used.has(base) ? base : undefined;
    let n = nextSuffix.get(base) ?? 2;
    for (; to === undefined; n++) {
      const candidate = `${base}_${n}`;
      if (!given.has(candidate) && !used.has(candidate)) to = candidate;
    }
    nextSuffix.set(base, n);
    used.add(to);
    names.push(to);
    renamed.push({ column: j + 1, from: name, to });
  }
  return { names, renamed };
}

/** One renamed column in words: 'column 1 (no name in the header) is read as "column_1"'. */
export function describeRenamed(r: RenamedColumn): string {
  return `column ${r.column} (${r.from === '' ? 'no name in the header' : `"${r.from}" again`}) is read as "${r.to}"`;
}

/** The warning the wizard, the CLI and the internal report give for renamed columns. */
export function renamedColumnsWarning(renamed: readonly RenamedColumn[]): string {
  return `The header has ${renamed.length === 1 ? 'a column' : `${renamed.length} columns`} without a name of its own, named here so the job and the release can refer to ${renamed.length === 1 ? 'it' : 'them'}: ${renamed.map(describeRenamed).join('; ')}.`;
}

/**
 * Header names must be present and unique: every later message names columns by them. Files of
 * statistical packages are refused when not (their formats require it; a name is never made up for
 * them). The column is named by its position (1-based, of how many) and its neighbour, so it can be
 * found in a file no one can open in an editor; `where` says where names are kept ("the Parquet schema").
 */
export function checkHeader(header: readonly string[], where = 'the header'): string | undefined {
  const seen = new Map<string, number>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j]!.trim();
    if (name === '') {
      const after = j > 0 ? `, after "${header[j - 1]!.trim()}"` : '';
      return `column ${j + 1} (of ${header.length}${after}) has no name in ${where}; name it before exporting the file`;
    }
    const first = seen.get(name);
    if (first !== undefined) return `the column name "${name}" appears twice in ${where} (columns ${first + 1} and ${j + 1})`;
    seen.set(name, j);
  }
  return undefined;
}
