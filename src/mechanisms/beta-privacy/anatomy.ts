/**
 * Anatomy (Xiao & Tao 2006), the ℓ-diversity baseline: groups of
 * ℓ distinct values taken from the ℓ largest hashes, residues added to the
 * first groups lacking their value. Returns per group its value counts, or
 * null when ℓ-diversity is infeasible (some o_i·ℓ > |T|).
 */
export function anatomyGroups(counts: readonly number[], l: number): Int32Array[] | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (l < 1 || counts.some((o) => o * l > total)) return null;
  const remaining = [...counts];
  const groups: Int32Array[] = [];
  const order = counts.map((_, i) => i);
  for (;;) {
    const nonEmpty = order.filter((i) => remaining[i]! > 0);
    if (nonEmpty.length < l) break;
    nonEmpty.sort((a, b) => remaining[b]! - remaining[a]! || a - b);
    const group = new Int32Array(counts.length);
    for (let j = 0; j < l; j++) {
      group[nonEmpty[j]!] = 1;
      remaining[nonEmpty[j]!]!--;
    }
    groups.push(group);
  }
  const residueTaken = new Uint8Array(groups.length);
  for (let i = 0; i < counts.length; i++) {
    while (remaining[i]! > 0) {
      const target = groups.findIndex((g, k) => residueTaken[k] === 0 && g[i] === 0);
      if (target < 0) return null;
      groups[target]![i] = 1;
      residueTaken[target] = 1;
      remaining[i]!--;
    }
  }
  return groups;
}

/** Sizes ℓ and ℓ+1 only (privacy ignored), for the MSE comparison when ℓ-diversity is infeasible. */
export function anatomySizeOnlyLoss(total: number, l: number, g: (s: number) => number): number {
  const groups = Math.floor(total / l);
  if (groups === 0) return g(total);
  const residue = total - groups * l;
  const larger = Math.min(residue, groups);
  const leftover = residue - larger;
  return (groups - larger) * g(l) + larger * g(l + 1) + (leftover > 0 ? g(leftover) : 0);
}
