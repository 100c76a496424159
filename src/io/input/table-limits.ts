import { formatCount } from '../../common/format/numbers.js';
/**
 * What a table read into memory may hold. Each limit turns a file that would exhaust memory
 * (often a small one: compression and run-length encoding let a few bytes claim gigabytes) into
 * a refusal naming the file, before the memory is spent.
 */

/**
 * The most columns a table may have. Each column costs its buffers and dictionary before any
 * cell (about a kilobyte): a few megabytes of commas could otherwise declare millions of columns
 * and gigabytes. Statistical packages stop well below this (SAS and SPSS at 32,767 variables in
 * most uses, Stata MP at 120,000; Excel at 16,384 columns).
 */
export const MAX_COLUMNS = 100_000;

/** The most cells (rows × columns) a table may have: their 32-bit codes alone take 8 GiB. */
export const MAX_CELLS = 2 ** 31;

/**
 * The most characters the distinct values of a table may hold together: about 1 GiB of the
 * JavaScript heap, before their lookup tables (the heap holds about 4 GiB in all).
 */
export const MAX_TEXT_CHARS = 2 ** 30;

const count = formatCount;

/** A table past one of the limits; the reader that met it names the file. */
export class TableTooLargeError extends Error {
  private constructor(
    message: string,
    /** True when the header alone is too wide (in delimited text, its line 1). */
    readonly header: boolean,
  ) {
    super(message);
    this.name = 'TableTooLargeError';
  }

  static columns(columns: number): TableTooLargeError {
    return new TableTooLargeError(`the table has ${count(columns)} columns; Custos reads at most ${count(MAX_COLUMNS)}`, true);
  }

  static cells(rows: number, columns: number): TableTooLargeError {
    return new TableTooLargeError(`the table has more than ${count(rows)} rows × ${count(columns)} columns, more cells than Custos holds in memory (${count(MAX_CELLS)}); split it or leave columns out`, false);
  }

  static text(): TableTooLargeError {
    return new TableTooLargeError(`the table's distinct values hold more than ${count(MAX_TEXT_CHARS)} characters together, more than Custos holds in memory; split it or leave long text columns out`, false);
  }
}

/** The characters of distinct values a table has taken so far (one per table, shared by its columns). */
export class TextBudget {
  private used = 0;

  constructor(private readonly limit = MAX_TEXT_CHARS) {}

  /** Counts a new distinct value's characters; throws past the limit. */
  spend(chars: number): void {
    this.used += chars;
    if (this.used > this.limit) throw TableTooLargeError.text();
  }
}
