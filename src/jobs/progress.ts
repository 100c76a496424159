/** Stage names shown in progress bars, in the order a run passes them. */
export const STAGES = {
  read: 'Reading input',
  analyze: 'Grouping and risk test',
  release: 'Protecting',
  utility: 'Measuring utility and attacks',
  write: 'Writing outputs',
} as const;

export type Stage = keyof typeof STAGES;

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
