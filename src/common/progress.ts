/** Stage names shown in progress bars, in the order a run passes them. */
export const STAGES = {
  read: 'Reading input',
  analyze: 'Grouping and risk test',
  release: 'Protecting',
  utility: 'Measuring utility and attacks',
  write: 'Writing outputs',
} as const;

export type Stage = keyof typeof STAGES;

/** Each stage's share of a typical run's time (reading and writing dominate at a million rows). */
const STAGE_SHARE: Readonly<Record<Stage, number>> = { read: 0.3, analyze: 0.1, release: 0.2, utility: 0.15, write: 0.25 };

/** One fraction for the whole run: every stage fills its own part of the bar, so it never jumps back to 0%. */
export function overallFraction(stage: string | undefined, fraction: number): number {
  let before = 0;
  for (const [name, share] of Object.entries(STAGE_SHARE) as [Stage, number][]) {
    if (name === stage) return Math.min(1, before + share * Math.min(1, Math.max(0, fraction)));
    before += share;
  }
  return 0;
}

/** "about 40 s left" once enough of the run has passed to say; undefined before. */
export function timeLeft(elapsedMs: number, overall: number): string | undefined {
  if (overall < 0.05 || overall >= 1 || elapsedMs < 2000) return undefined;
  const seconds = (elapsedMs * (1 - overall)) / overall / 1000;
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds / 5) * 5)} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}
