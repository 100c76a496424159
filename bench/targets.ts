/**
 * Issue 37's targets as `npm run bench` prints them: each with the figure measured in this run,
 * its limit, and a verdict (met, not met, or not measured here and why).
 */
export interface Target {
  readonly id: string;
  readonly what: string;
  /** The measured figure in the target's unit (a ratio, or seconds), undefined when not measured in this run. */
  readonly value?: number;
  readonly limit: number;
  readonly unit: '×' | 's';
  /** How the figure was measured (what it is a ratio of), or why it was not. */
  readonly note: string;
}

export const verdict = (t: Target): string => (t.value === undefined ? 'not measured here' : t.value <= t.limit ? 'met' : 'NOT met');

const show = (value: number, unit: Target['unit']): string => (unit === '×' ? `${value.toFixed(2)}×` : `${value.toFixed(1)} s`);

export function printTargets(targets: readonly Target[], load: string): void {
  console.log(`\nIssue 37 targets (load average at the end of the run: ${load}):\n`);
  console.log('| target | measured | limit | verdict | how |');
  console.log('|---|---:|---:|---|---|');
  for (const t of targets) console.log(`| ${t.id}. ${t.what} | ${t.value === undefined ? '–' : show(t.value, t.unit)} | ${show(t.limit, t.unit)} | ${verdict(t)} | ${t.note} |`);
}
