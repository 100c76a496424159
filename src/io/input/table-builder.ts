import { GrowableUint32 } from '../../common/table/growable.js';
import { makeColumn, type Table } from '../../common/table/table.js';

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
