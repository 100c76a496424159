import type { Stage } from '../common/progress.js';

export { STAGES, type Stage } from '../common/progress.js';

export interface ProgressEvent {
  readonly stage: Stage;
  readonly label: string;
  /** Progress within the stage, 0..1. */
  readonly fraction: number;
}

export type ProgressListener = (event: ProgressEvent) => void;

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}
