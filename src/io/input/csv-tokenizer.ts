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

export class CsvTokenizer {
  private pending = '';
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
    return this.pending === '';
  }

  /** The physical line the next record starts on. */
  get nextLine(): number {
    return this.line;
  }

  /** Feeds the next chunk; final = no more text follows. */
  feed(chunk: string, final: boolean): void {
    const buf = this.pending.length > 0 ? this.pending + chunk : chunk;
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
              if (!final) break records;
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
        fields[count++] = value;
        if (c === D) {
          i++;
          if (i === n && !final) break records;
          if (i === n) {
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
    this.pending = incomplete ? buf.slice(recordStart) : '';
  }
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) count++;
  if (count === 0 && text.includes('\r')) for (const c of text) if (c === '\r') count++;
  return count;
}
