/**
 * An invalid job or infeasible parameters (CLI exit code 2). key is the JSON
 * path of the first offending key; issues lists every problem found.
 */
export class JobError extends Error {
  readonly issues: readonly string[];
  constructor(
    message: string,
    readonly key?: string,
    issues?: readonly string[],
  ) {
    super(key && !message.startsWith(`${key}:`) ? `${key}: ${message}` : message);
    this.name = 'JobError';
    this.issues = issues ?? [this.message];
  }
}
