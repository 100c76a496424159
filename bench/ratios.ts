/**
 * Benchmark figures as ratios to a naive scan of the same file in the same run, printed as the
 * docs/BENCHMARK.md's table, and checked against it: a ratio more than 20% above BENCHMARK.md's is a regression.
 */
export interface Ratio {
  readonly name: string;
  readonly ms: number;
  readonly peakRss?: number;
  /** A figure kept for the record, not compared by --check (a few milliseconds of noise is not a regression). */
  readonly unchecked?: boolean;
}

/** BENCHMARK.md's table for a row count starts after this marker. */
export const marker = (rows: number): string => `<!-- bench-ratios rows=${rows} -->`;
const TOLERANCE = 1.2;

export function ratioTable(ratios: readonly Ratio[], scanMs: number, rows: number): string[] {
  return [
    marker(rows),
    '| measured | seconds | × naive scan | peak RSS |',
    '|---|---:|---:|---:|',
    ...ratios.map((r) => `| ${r.name} | ${(r.ms / 1000).toFixed(2)} | ${(r.ms / scanMs).toFixed(2)} | ${r.peakRss ? `${Math.round(r.peakRss / 2 ** 20).toLocaleString('en-US')} MiB` : ''} |`),
  ];
}

export function printRatios(ratios: readonly Ratio[], scanMs: number, rows: number): void {
  console.log(`\nEnd to end and per stage, as multiples of the naive scan (${(scanMs / 1000).toFixed(2)} s here):\n`);
  for (const line of ratioTable(ratios, scanMs, rows)) console.log(line);
}

/** The ratios recorded in docs/BENCHMARK.md for this row count, by name. */
export function recordedRatios(readme: string, rows: number): ReadonlyMap<string, number> | undefined {
  const start = readme.indexOf(marker(rows));
  if (start < 0) return undefined;
  const recorded = new Map<string, number>();
  for (const line of readme.slice(start).split('\n').slice(3)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((c) => c.trim());
    const ratio = Number(cells[3]);
    if (cells[1] && Number.isFinite(ratio)) recorded.set(cells[1], ratio);
  }
  return recorded;
}

/** One line per ratio more than 20% above BENCHMARK.md's (none: no regression). */
export function checkAgainstReadme(readme: string, ratios: readonly Ratio[], scanMs: number, rows: number): string[] {
  const recorded = recordedRatios(readme, rows);
  if (!recorded) return [`--check: docs/BENCHMARK.md has no table for ${rows.toLocaleString('en-US')} rows (${marker(rows)}): nothing to compare with`];
  const regressions: string[] = [];
  for (const r of ratios) {
    const before = recorded.get(r.name);
    const now = r.ms / scanMs;
    if (!r.unchecked && before !== undefined && now > before * TOLERANCE) regressions.push(`regression: ${r.name}: ${now.toFixed(2)}× the naive scan, BENCHMARK.md ${before.toFixed(2)}× (limit ${(before * TOLERANCE).toFixed(2)}×)`);
  }
  return regressions;
}
