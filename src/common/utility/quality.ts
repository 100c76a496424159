/**
 * Quality measures of a full-domain generalization with record suppression, the ones ARX's quality
 * analysis names (Prasser et al., "A Benchmark of Globally-Optimal Anonymization Methods…", and
 * ARX's org.deidentifier.arx.aggregates.quality), each in its textbook form, computed from the input's
 * records, the chosen levels and which records were released:
 *
 * - height: Σ_j level_j, the transformation's height in the lattice, and its share of the top's;
 * - precision, per attribute (Sweeney 2002, ARX's MetricMDNMPrecision): (R·level/(depth − 1) + S)/n,
 *   R released and S suppressed of the n input records (a suppressed record fully generalized);
 * - non-uniform entropy, per attribute (ARX's MetricMDNUNMEntropy): Σ over input records of
 *   −log₂(c(v)/c(g)), c(v) the input's records with the record's value, c(g) with values under its
 *   released generalization (under the root, n, when suppressed); in bits, 0 when nothing is generalized;
 * - average class size: R / released classes (the released table's mean class);
 * - discernibility (Bayardo, Agrawal 2005; ARX's MetricSDNMDiscernability): Σ released |C|² + S·n;
 * - ambiguity (Nergiz, Clifton 2007): the mean over input records of the leaf tuples its released
 *   tuple could stand for, Π_j coverage of its generalized values (Π_j domain sizes when suppressed);
 * - KL divergence (Kifer, Gehrke 2006): Σ_t p(t)·log₂(p(t)/p̂(t)) over the input's quasi-identifier
 *   tuples, p̂ the maximum-entropy reading of the release: each released class spreads its |C|/n evenly
 *   over the leaf tuples it covers, the suppressed records their S/n over the whole domain; in bits.
 *
 * Lower is better for every one. What each needs: height and precision need the levels and the
 * counts R and S; average class size the release alone; discernibility S and n; non-uniform entropy,
 * ambiguity and KL divergence the input's own values. They are internal figures.
 */

/** One quasi-identifier at its chosen level. */
export interface QualityColumn {
  readonly name: string;
  readonly level: number;
  /** Levels of its hierarchy (1: kept as collected). */
  readonly depth: number;
  /** Input value code per record (the leaves). */
  readonly original: Uint32Array;
  /** Generalized value code per record at the chosen level. */
  readonly generalized: Uint32Array;
  /** coverage[generalized code]: leaves (input values of the hierarchy) the generalized value stands for. */
  readonly coverage: ArrayLike<number>;
  /** Leaves of the whole domain (what "*" stands for). */
  readonly domainSize: number;
}

export interface QualityInput {
  readonly rowCount: number;
  readonly columns: readonly QualityColumn[];
  /** 1 where the record is released, 0 where it was suppressed. */
  readonly released: Uint8Array;
  /** Per record, its class: records with the same generalized tuple share an id (ids from 0). */
  readonly classOf: Uint32Array;
  /** Per record, its input tuple: records with the same input quasi-identifiers share an id (ids from 0). */
  readonly tupleOf: Uint32Array;
}

export interface AttributeQuality {
  readonly name: string;
  readonly precision: number;
  readonly nonUniformEntropy: number;
}

export interface Quality {
  readonly height: number;
  /** height / the top node's height (0 when the lattice is one node). */
  readonly relativeHeight: number;
  readonly averageClassSize: number;
  readonly discernibility: number;
  readonly ambiguity: number;
  readonly klDivergence: number;
  readonly attributes: readonly AttributeQuality[];
}

function countsOf(codes: Uint32Array, n: number): Map<number, number> {
  const out = new Map<number, number>();
  for (let r = 0; r < n; r++) out.set(codes[r]!, (out.get(codes[r]!) ?? 0) + 1);
  return out;
}

export function qualityOf(input: QualityInput): Quality {
  const { rowCount: n, columns, released } = input;
  let R = 0;
  for (let r = 0; r < n; r++) R += released[r]!;
  const S = n - R;
  const height = columns.reduce((s, c) => s + c.level, 0);
  const top = columns.reduce((s, c) => s + c.depth - 1, 0);

  const attributes = columns.map((c): AttributeQuality => {
    const precision = n === 0 ? 0 : ((c.depth > 1 ? (R * c.level) / (c.depth - 1) : 0) + S) / n;
    // c(v) over every input record; c(g) over the input records whose value generalizes to g.
    const byValue = countsOf(c.original, n);
    const byGeneralized = countsOf(c.generalized, n);
    let entropy = 0;
    for (let r = 0; r < n; r++) {
      const cv = byValue.get(c.original[r]!)!;
      const cg = released[r] ? byGeneralized.get(c.generalized[r]!)! : n;
      if (cv !== cg) entropy -= Math.log2(cv / cg);
    }
    return { name: c.name, precision, nonUniformEntropy: entropy };
  });

  // Released records per class, input records per input tuple.
  let ids = 0;
  let tuples = 0;
  for (let r = 0; r < n; r++) {
    ids = Math.max(ids, input.classOf[r]! + 1);
    tuples = Math.max(tuples, input.tupleOf[r]! + 1);
  }
  const classSize = new Float64Array(ids);
  const tupleSize = new Float64Array(tuples);
  for (let r = 0; r < n; r++) {
    tupleSize[input.tupleOf[r]!]!++;
    if (released[r]) classSize[input.classOf[r]!]!++;
  }
  let discernibility = S * n;
  let classes = 0;
  for (const size of classSize) {
    discernibility += size * size;
    if (size > 0) classes++;
  }

  const domain = columns.reduce((p, c) => p * c.domainSize, 1);
  let ambiguity = 0;
  let kl = 0;
  for (let r = 0; r < n; r++) {
    let covered = 1;
    for (const c of columns) covered *= c.coverage[c.generalized[r]!]!;
    ambiguity += released[r] ? covered : domain;
    // p̂(t) of this record's input tuple: its class's records spread over what the class covers, the suppressed over the domain.
    const p = tupleSize[input.tupleOf[r]!]! / n;
    const estimate = classSize[input.classOf[r]!]! / (n * covered) + S / (n * domain);
    kl += Math.log2(p / estimate) / n;
  }
  return {
    height,
    relativeHeight: top === 0 ? 0 : height / top,
    averageClassSize: classes === 0 ? 0 : R / classes,
    discernibility,
    ambiguity: n === 0 ? 0 : ambiguity / n,
    klDivergence: n === 0 ? 0 : kl,
    attributes,
  };
}
