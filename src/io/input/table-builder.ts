import { GrowableUint32 } from '../../common/table/growable.js';
import { makeColumn, type Table } from '../../common/table/table.js';

/** A builder's columns as plain arrays: they cross to another thread and back. */
export interface BuiltParts {
  readonly rowCount: number;
  readonly codes: readonly Uint32Array[];
  readonly dictionaries: readonly (readonly string[])[];
}

/** Dictionary-encodes records column by column as they stream in. */
export class TableBuilder {
  private readonly codes: GrowableUint32[];
  private readonly dictionaries: string[][];
  private readonly indexes: Map<string, number>[];
  rowCount = 0;

  constructor(
    readonly header: readonly string[],
    missing: readonly string[],
  ) {
    // Small to start: a wide file with few rows must cost memory in proportion to its cells, not its columns.
    this.codes = header.map(() => new GrowableUint32(256));
    this.dictionaries = header.map(() => ['']);
    // Missing-value tokens share the lookup with real values and map to code 0.
    this.indexes = header.map(() => new Map(missing.map((token) => [token, 0])));
  }

  add(fields: readonly string[]): void {
    for (let j = 0; j < this.header.length; j++) {
      const value = fields[j]!;
      const index = this.indexes[j]!;
      let code = index.get(value);
      if (code === undefined) {
        const dictionary = this.dictionaries[j]!;
        code = dictionary.length;
        dictionary.push(value);
        index.set(value, code);
      }
      this.codes[j]!.push(code);
    }
    this.rowCount++;
  }

  /** The codes and dictionaries as read so far, for another builder to append (the second thread's part of a file). */
  parts(): BuiltParts {
    return { rowCount: this.rowCount, codes: this.codes.map((c) => c.toArray()), dictionaries: this.dictionaries };
  }

  /**
   * Appends the records another builder read from the rest of the file. Its codes are mapped to
   * this builder's: its values new here are added in the order it met them, so the dictionaries
   * and codes are exactly those of one builder reading the whole file.
   */
  append(parts: BuiltParts): void {
    for (let j = 0; j < this.header.length; j++) {
      const index = this.indexes[j]!;
      const dictionary = this.dictionaries[j]!;
      const theirs = parts.dictionaries[j]!;
      const mapped = new Uint32Array(theirs.length);
      // Code 0 is missing in both, whatever tokens were read as missing.
      for (let code = 1; code < theirs.length; code++) {
        const value = theirs[code]!;
        let ours = index.get(value);
        if (ours === undefined) {
          ours = dictionary.length;
          dictionary.push(value);
          index.set(value, ours);
        }
        mapped[code] = ours;
      }
      this.codes[j]!.pushMapped(parts.codes[j]!, mapped);
    }
    this.rowCount += parts.rowCount;
  }

  build(): Table {
    const columns = this.header.map((name, j) => makeColumn(name, this.codes[j]!.toArray(), this.dictionaries[j]!));
    return { rowCount: this.rowCount, columns };
  }
}

/** Header names must be present and unique: every later message names columns by them. */
export function checkHeader(header: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j]!.trim();
    if (name === '') return `column ${j + 1} has no name in the header`;
    if (seen.has(name)) return `the column name "${name}" appears twice in the header`;
    seen.add(name);
  }
  return undefined;
}
