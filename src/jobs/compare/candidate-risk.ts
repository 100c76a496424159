import type { MethodOutcome } from '../method-kit/outcome.js';
import type { ReleaseTable } from '../../io/output/release-table.js';

export interface CandidateRisk {
  /** Share of the input's records the method's own attack model recovers. */
  readonly share: number;
  readonly measure: string;
}

function codesOf(table: ReleaseTable, name: string): { values: readonly string[]; codes: Uint32Array } {
  const column = table.columns.find((c) => c.name === name)!;
  const codes = new Uint32Array(table.rowCount);
  for (let i = 0; i < table.rowCount; i++) codes[i] = column.codes[column.via ? column.via[i]! : i]!;
  return { values: column.dictionary, codes };
}

/**
 * β-privacy: the adversary of the paper finds a target's bucket and guesses the
 * value the sensitive table lists most often there. A value listed at least
 * twice is real, so every record of the bucket holding it is recovered; when
 * every value is listed once (some of them fakes), the guess is right for one
 * record with probability real/listed. Returns the expected records recovered.
 */
export function bucketGuesses(st: ReleaseTable, fakesPerBucket: number): number {
  const bucket = codesOf(st, 'bucket');
  const count = codesOf(st, 'count');
  const most = new Map<string, number>();
  const listed = new Map<string, number>();
  const entries = new Map<string, number>();
  for (let i = 0; i < st.rowCount; i++) {
    const b = bucket.values[bucket.codes[i]!]!;
    const c = Number(count.values[count.codes[i]!]);
    most.set(b, Math.max(most.get(b) ?? 0, c));
    listed.set(b, (listed.get(b) ?? 0) + c);
    entries.set(b, (entries.get(b) ?? 0) + 1);
  }
  let recovered = 0;
  for (const [b, top] of most) {
    if (top >= 2) recovered += top;
    else recovered += Math.max(0, entries.get(b)! - fakesPerBucket) / entries.get(b)!;
  }
  return recovered;
}

/**
 * The common risk axis, per method, from what its run computed: the share of
 * the input's records whose sensitive value (randomized response, β-privacy)
 * or identity (k-anonymity methods) the method's own attack model recovers.
 */
export function candidateRisk(outcome: MethodOutcome, inputRows: number): CandidateRisk {
  const type = outcome.method.type;
  const by = outcome.risk.bySensitive ?? [];
  const eps = outcome.method.parameters['riskEpsilon'] ?? outcome.method.parameters['epsilon'];
  const delta = outcome.method.parameters['riskDelta'] ?? outcome.method.parameters['delta'];
  const test = `the (ε = ${String(eps)}, δ = ${String(delta)}) reconstruction test`;
  if (type === 'uniform-perturbation') {
    return {
      share: Math.max(0, ...by.map((s) => (s.violatingRowsBefore ?? 0) / inputRows)),
      measure: `records in micro groups whose sensitive distribution the reconstruction attack recovers from this release: their group fails ${test} (Wang, Han, Fu, Example 1); the largest share over the sensitive columns`,
    };
  }
  if (type === 'reconstruction-privacy') {
    return {
      share: Math.max(0, ...by.map((s) => (s.violatingRowsAfter ?? 0) / inputRows)),
      measure: `records in micro groups that still fail ${test} after Sampling, Perturbing, Scaling (0 with strict, the default); the largest share over the sensitive columns`,
    };
  }
  if (type === 'beta-privacy') {
    const st = outcome.releases[1]?.table;
    const recovered = st && outcome.beta ? bucketGuesses(st, outcome.beta.fakeValues) : Number.NaN;
    return {
      share: recovered / inputRows,
      measure: "expected records whose sensitive value the adversary guesses right by taking the value the sensitive table lists most often in the record's bucket (fake values counted as listed); β bounds each record's chance by β_v",
    };
  }
  const classes = outcome.risk.reidentification?.release.classes ?? Number.NaN;
  return {
    share: classes / inputRows,
    measure:
      'expected records re-identified by an adversary who matches a target\'s quasi-identifiers to the released classes (one record per class of generalized quasi-identifiers, the marketer risk with the sample standing in for the population: an upper bound), over the input\'s records',
  };
}
