import type { RejectedRow } from './import-types.js';
import type { TableBuilder } from './table-builder.js';

const MAX_LISTED_REJECTS = 1000;

/** A record with the wrong number of fields where the import stops at the first one. */
export class BadRowError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * What happens to each record after the header, the same in every thread that reads a part of
 * the file: a record of the header's width is added, a blank line is passed over, any other is
 * rejected (listed, up to a thousand) or stops the import.
 */
export class RecordRules {
  readonly rejected: RejectedRow[] = [];
  rejectedCount = 0;

  constructor(
    private readonly builder: TableBuilder,
    private readonly delimiter: string,
    private readonly onBadRow: 'error' | 'skip',
  ) {}

  record(fields: string[], count: number, line: number): void {
    if (this.keeps(count, count === 1 && fields[0] === '', line)) this.builder.add(fields, line);
  }

  /** Whether a record of `count` fields is added (`blank`: its one field is empty); any other is passed over, rejected or stops the import. */
  keeps(count: number, blank: boolean, line: number): boolean {
    const width = this.builder.header.length;
    if (count === width) return true;
    if (count === 1 && blank) return false;
    const reason = `${count} field${count === 1 ? '' : 's'} where the header has ${width}`;
    if (this.onBadRow === 'error') throw new BadRowError(`${reason} (check quoting and the delimiter ${JSON.stringify(this.delimiter)})`, line);
    this.reject(line, reason);
    return false;
  }

  /** Rejections another thread met, its lines already made the file's. */
  absorb(rejected: readonly RejectedRow[], count: number): void {
    for (const row of rejected) if (this.rejected.length < MAX_LISTED_REJECTS) this.rejected.push(row);
    this.rejectedCount += count;
  }

  private reject(line: number, reason: string): void {
    this.rejectedCount++;
    if (this.rejected.length < MAX_LISTED_REJECTS) this.rejected.push({ line, reason });
  }
}
