import type { Report } from './report-model.js';

/**
 * Whether a report's guarantee holds, in words. `holds` is absent where the release as a whole is
 * claimed to meet no guarantee (dp-counts with correlated noise: each answer alone has its ε, the
 * answers together have none): neither a pass nor a failure, and never shown as one.
 */
export type GuaranteeVerdict = 'holds' | 'fails' | 'not-claimed';

export function guaranteeVerdict(g: Pick<Report['guarantee'], 'holds'>): GuaranteeVerdict {
  return g.holds === undefined ? 'not-claimed' : g.holds ? 'holds' : 'fails';
}

const WORDS: Record<GuaranteeVerdict, string> = {
  holds: 'holds',
  fails: 'does not hold',
  'not-claimed': 'no guarantee is claimed for the release as a whole',
};

/** "holds", "does not hold" (upper case where a failure must stand out), or that none is claimed. */
export function verdictWords(g: Pick<Report['guarantee'], 'holds'>, shout = false): string {
  const verdict = guaranteeVerdict(g);
  return shout && verdict === 'fails' ? 'DOES NOT HOLD' : WORDS[verdict];
}
