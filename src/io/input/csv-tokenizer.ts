import { MAX_COLUMNS } from './table-limits.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * RFC 4180 tokenizer over decoded text arriving in chunks. Quoted fields may
 * hold separators, quotes ("") and line breaks; a record split across chunks is
 * kept and re-scanned when the next chunk arrives. Line numbers are physical
 * lines of the file, so errors point where an editor shows them.
 */
export interface CsvRecordSink {
  /** fields[0..count) are the record's fields; line is where the record starts. */
  record(fields: string[], count: number, line: number): void;
}

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * The longest record held while waiting for its end. A quote without its partner makes the rest
 * of the file one field: past this the file is refused at once, naming where the field opened,
 * instead of holding the whole file (a V8 string cannot pass 2^29 characters anyway).
 */
export const MAX_RECORD_CHARS = 1 << 26;

/**
 * A record stops at MAX_COLUMNS fields, the most a table holds: a record of millions of empty
 * fields (a few megabytes of delimiters) would otherwise be split in full, and its fields kept,
 * before anything could count them.
 */
function tooManyFields(line: number, column: number): CsvSyntaxError {
  return new CsvSyntaxError(`a record has more than ${formatCount(MAX_COLUMNS)} fields; Custos reads at most ${formatCount(MAX_COLUMNS)} columns`, line, column);
}

/** Whether text can end a record that waits: every record ends at a line break, a quoted field at a quote. */
function mayEndRecord(text: string): boolean {
  return text.includes('"') || text.includes('\n') || text.includes('\r');
}

const UNQUOTED = { line: 1, column: 1, quoted: false };

export class CsvTokenizer {
  /** The unfinished record's text, in the chunks it arrived in (joined only when it may end). */
  private pending: string[] = [];
  private pendingLength = 0;
  /** Where the unfinished record stopped: its field, and whether that field is quoted. */
  private stoppedAt = UNQUOTED;
  private line = 1;
  private readonly fields: string[] = [];
  private readonly delimiter: number;

  constructor(
    delimiter: string,
    private readonly sink: CsvRecordSink,
  ) {
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
      throw new RangeError(`unusable delimiter ${JSON.stringify(delimiter)}`);
    }
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** Whether everything fed so far ended at the end of a record (nothing waits for the next chunk). */
  get atRecordStart(): boolean {
    return this.pendingLength === 0;
  }

  /** The physical line the next record starts on. */
  get nextLine(): number {
    return this.line;
  }

  /** Feeds the next chunk; final = no more text follows. */
  feed(chunk: string, final: boolean): void {
    if (this.pendingLength > 0 && !final && !mayEndRecord(chunk)) {
      // Re-scanning the record from its start for every chunk would be quadratic in its length.
      this.hold(chunk);
      return;
    }
    const buf = this.pendingLength > 0 ? this.pending.join('') + chunk : chunk;
    // A record left unfinished stops in an unquoted field unless the quoted break below says otherwise.
    this.stoppedAt = UNQUOTED;
    const n = buf.length;
    const D = this.delimiter;
    const fields = this.fields;
    let i = 0;
    let recordStart = 0;
    let incomplete = false;
    records: while (i < n) {
      recordStart = i;
      incomplete = true;
      let count = 0;
      let newlinesInside = 0;
      for (;;) {
        let value: string;
        let c = i < n ? buf.charCodeAt(i) : -1;
        if (c === QUOTE) {
          const open = i;
          let j = i + 1;
          let escaped = false;
          for (;;) {
            const q = buf.indexOf('"', j);
            if (q === -1 || (q === n - 1 && !final)) {
              if (!final) {
                this.stoppedAt = { line: this.line + newlinesInside, column: count + 1, quoted: true };
                break records;
              }
              throw new CsvSyntaxError('a quoted field is never closed', this.line + newlinesInside, count + 1);
            }
            if (q + 1 < n && buf.charCodeAt(q + 1) === QUOTE) {
              escaped = true;
              j = q + 2;
              continue;
            }
            value = buf.slice(open + 1, q);
            i = q + 1;
            break;
          }
          newlinesInside += countLineBreaks(value);
          if (escaped) value = value.replaceAll('""', '"');
          c = i < n ? buf.charCodeAt(i) : -1;
          if (c !== D && c !== LF && c !== CR && c !== -1) {
            throw new CsvSyntaxError(
              `unexpected ${JSON.stringify(String.fromCharCode(c))} after a closing quote (a quote inside a quoted field must be doubled)`,
              this.line + newlinesInside,
              count + 1,
            );
          }
        } else {
          let j = i;
          while (j < n) {
            c = buf.charCodeAt(j);
            if (c === D || c === LF || c === CR) break;
            j++;
          }
          if (j === n) {
            if (!final) break records;
            c = -1;
          }
          value = buf.slice(i, j);
          i = j;
        }
        if (count === MAX_COLUMNS) {
          throw tooManyFields(this.line + newlinesInside, count + 1);
        }
        fields[count++] = value;
        if (c === D) {
          i++;
          if (i === n && !final) break records;
          if (i === n) {
            if (count === MAX_COLUMNS) {
              throw tooManyFields(this.line + newlinesInside, count + 1);
            }
            fields[count++] = '';
            break;
          }
          continue;
        }
        if (c === CR) {
          if (i + 1 === n && !final) break records;
          i += i + 1 < n && buf.charCodeAt(i + 1) === LF ? 2 : 1;
        } else if (c === LF) i++;
        break;
      }
      incomplete = false;
      const line = this.line;
      this.line += newlinesInside + 1;
      this.sink.record(fields, count, line);
    }
    // Everything from the start of the unfinished record waits for the next chunk.
    this.pending = [];
    this.pendingLength = 0;
    if (incomplete) this.hold(buf.slice(recordStart));
  }

  private hold(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength <= MAX_RECORD_CHARS) return;
    const { line, column, quoted } = this.stoppedAt;
    const limit = formatCount(MAX_RECORD_CHARS);
    throw quoted
      ? new CsvSyntaxError(`a quoted field opened here runs past ${limit} characters without its closing quote: a quote is probably missing, or one inside the field is not doubled`, line, column)
      : new CsvSyntaxError(`a record starting here runs past ${limit} characters without a line break`, this.line, 1);
  }
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) count++;
  if (count === 0 && text.includes('\r')) for (const c of text) if (c === '\r') count++;
  return count;
}
