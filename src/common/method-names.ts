/**
 * One name per method: the job's `method.type` (the command line's `--method`) is the name, and
 * each mechanism lists the other names people reach for (`aliases` in its metadata: the common name
 * of the model it implements, the paper's term). A name that is not a type is answered with the
 * type it most likely means, so "k-anonymity" gets "did you mean global-recoding?".
 */

export interface NamedMethod {
  readonly type: string;
  readonly aliases: readonly string[];
}

/** Case, spaces, underscores and Greek letters do not make a name different: Beta_Privacy, β-privacy and beta-privacy are one name. */
export function normalizeMethodName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/β/g, 'beta')
    .replace(/ℓ/g, 'l')
    .replace(/ε/g, 'epsilon')
    .replace(/[\s_]+/g, '-');
}

/** Levenshtein distance, for the few short names compared here. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The type a name that is not one probably means: an alias (after `normalizeMethodName`), else
 * the type or alias nearest by edit distance when it is close (at most a third of the name's
 * letters, and at least 1), else undefined.
 */
export function likelyMethod(given: string, methods: readonly NamedMethod[]): string | undefined {
  const name = normalizeMethodName(given);
  if (name === '') return undefined;
  for (const m of methods) if (m.type === name || m.aliases.includes(name)) return m.type;
  let best: { type: string; distance: number } | undefined;
  for (const m of methods) {
    for (const candidate of [m.type, ...m.aliases]) {
      const distance = editDistance(name, candidate);
      if (!best || distance < best.distance) best = { type: m.type, distance };
    }
  }
  return best && best.distance <= Math.max(1, Math.floor(name.length / 3)) ? best.type : undefined;
}

/** 'unknown method "k-anonymity" (did you mean global-recoding?); the methods are …' */
export function unknownMethodMessage(given: unknown, methods: readonly NamedMethod[]): string {
  const likely = typeof given === 'string' ? likelyMethod(given, methods) : undefined;
  const available = methods.map((m) => m.type).join(', ');
  return `unknown method ${JSON.stringify(given)}${likely ? ` (did you mean ${likely}?)` : ''}; the methods are ${available}`;
}
