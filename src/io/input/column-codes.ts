import { GrowableCodes } from '../../common/table/growable.js';
import { makeColumn, MISSING_CODE, type Column } from '../../common/table/table.js';
import { TextBudget } from './table-limits.js';

/**
 * One column dictionary-encoded as its values arrive, for readers of columnar files (Parquet),
 * which deliver a column at a time rather than a row at a time (TableBuilder). A file's own
 * dictionary is looked up once per entry (`code`), then its indexes copy codes without touching
 * a string per row.
 */
export class ColumnCodes {
  private readonly codes = new GrowableCodes(256);
  private readonly dictionary: string[] = [''];
  private readonly index: Map<string, number>;
  /** Null values (the file's own missing values), not counting the job's missing tokens. */
  nulls = 0;

  constructor(
    readonly name: string,
    missing: readonly string[],
    /** Shared by the table's columns. */
    private readonly text = new TextBudget(),
  ) {
    // The job's missing-value tokens read as missing, as in every other reader.
    this.index = new Map(missing.map((token) => [token, MISSING_CODE]));
  }

  get length(): number {
    return this.codes.length;
  }

  /** The code of a value, adding it to the dictionary when new. */
  code(value: string): number {
    let code = this.index.get(value);
    if (code === undefined) {
      this.text.spend(value.length);
      code = this.dictionary.length;
      this.dictionary.push(value);
      this.index.set(value, code);
    }
    return code;
  }

  push(code: number): void {
    this.codes.push(code);
  }

  pushNull(): void {
    this.nulls++;
    this.codes.push(MISSING_CODE);
  }

  build(): Column {
    return makeColumn(this.name, this.codes.toArray(true), this.dictionary, this.codes.countOf(MISSING_CODE));
  }
}
