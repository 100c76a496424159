/**
 * Short labels for the recent-file chips: a file's name, with as many of its parent folders as it
 * takes to tell it from another recent file of the same name ("2024/release.sav" beside
 * "2025/release.sav"). The full path stays in the chip's tooltip.
 */
export function recentLabels(all: readonly string[]): string[] {
  // The same file listed twice (two jobs on one input) is one file: it keeps its short label.
  const paths = [...new Set(all)];
  const parts = paths.map((p) => p.split(/[\\/]+/).filter(Boolean));
  const depth = parts.map(() => 1);
  const label = (i: number): string => parts[i]!.slice(-depth[i]!).join('/');
  // Lengthen every label that another one equals, until none do (or the whole path is shown).
  for (let round = 0; round < 64; round++) {
    const byLabel = new Map<string, number[]>();
    paths.forEach((_, i) => byLabel.set(label(i), [...(byLabel.get(label(i)) ?? []), i]));
    let grown = false;
    for (const same of byLabel.values()) {
      if (same.length < 2) continue;
      for (const i of same) {
        if (depth[i]! < parts[i]!.length) {
          depth[i]!++;
          grown = true;
        }
      }
    }
    if (!grown) break;
  }
  const labels = new Map(paths.map((p, i) => [p, parts[i]!.length === 0 ? p : label(i)]));
  return all.map((p) => labels.get(p)!);
}
