/** A problem with an input file, located as precisely as the format allows. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ''}${column !== undefined ? `:${column}` : ''}: ${message}`);
    this.name = 'InputError';
  }
}
