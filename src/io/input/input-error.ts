import type { InputFormat } from '../../common/input-formats.js';

/**
 * What the reader advises for a problem, when the cause can be acted on in the reading options:
 * "reading-options" where the delimiter or the encoding can be the cause (delimited text only),
 * "sheet" where another sheet of a workbook can hold the table, "path" where no file is there.
 */
export type InputAdvice = 'reading-options' | 'sheet' | 'path';

/** What is known of the file a problem was found in, beyond its name and position. */
export interface InputErrorContext {
  readonly format?: InputFormat;
  /** The sheet read (a workbook), named in the message. */
  readonly sheet?: string;
  /** Every sheet of the workbook: known even when the one read fails, so another can be chosen. */
  readonly sheets?: readonly string[];
  readonly advice?: InputAdvice;
}

/** A problem with an input file, located as precisely as the format allows. */
export class InputError extends Error {
  /** The problem without its location: the message is `file[ (sheet "S")][:line[:column]]: reason`. */
  readonly reason: string;

  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly column?: number,
    readonly context: InputErrorContext = {},
  ) {
    super(`${file}${context.sheet !== undefined ? ` (sheet "${context.sheet}")` : ''}${line !== undefined ? `:${line}` : ''}${column !== undefined ? `:${column}` : ''}: ${message}`);
    this.name = 'InputError';
    this.reason = message;
  }

  /** The same problem with more known of its file; what the error already says wins. */
  withContext(context: InputErrorContext): InputError {
    return new InputError(this.reason, this.file, this.line, this.column, { ...context, ...this.context });
  }
}
