/**
 * A candidate release as the comparison's count queries see it: per released
 * record and per column of the common pool, a code, and for each value of the
 * input how much a record with that code counts toward it. One shape serves
 * every kind of release, so every candidate answers the same queries the same
 * way: a value released as collected counts 1 where it matches; a generalized
 * value counts 1/|values it covers| for each input value it covers (spread
 * uniformly); a randomized value counts through the unbiased estimator of
 * randomized response; a bucketized sensitive value counts its share of the
 * record's bucket (Anatomy's estimator); a withheld column counts 1/|values|.
 */
export interface ReleasedColumn {
  /** Per released record, its code in this column's released code space. */
  readonly codes: Uint32Array;
  readonly codeCount: number;
  /** By released code: how much of a record with that code counts as holding input value x (a code of the input). */
  weights(x: number): Float64Array;
  /** The released codes whose weight for x is not 0, when they are few; null when nearly every code has one. */
  support(x: number): readonly number[] | null;
}

export interface ReleasedRecords {
  readonly records: number;
  /** Each record stands for this many input records (1/β after Bernoulli sampling at rate β). */
  readonly scale: number;
  /** One per column of the pool, in the pool's order. */
  readonly columns: readonly ReleasedColumn[];
}

/** Input × released code pairs up to which coveringColumn marks the pairs met in a byte array (16 MiB at most). */
const DENSE_PAIRS = 1 << 24;

/**
 * A column released value for value or generalized: each released code covers
 * the input values of the rows that carry it. truthOfRow and releasedOfRow give,
 * for every input row, its input code and the code it is released as (whether
 * or not the row itself is released), so a generalized value covers every input
 * value that generalizes to it.
 */
export function coveringColumn(truthOfRow: Uint32Array, releasedOfRow: Uint32Array, truthCodeCount: number, codeCount: number, codes: Uint32Array, denseLimit = DENSE_PAIRS): ReleasedColumn {
  const covering: number[][] = Array.from({ length: truthCodeCount }, () => []);
  const coverSize = new Float64Array(codeCount);
  if (truthOfRow === releasedOfRow && truthCodeCount === codeCount) {
    // Released as collected (the input's own codes, a randomized method's quasi-identifiers): each
    // value covers itself where some row holds it; a pass in order instead of a pair per row.
    const present = new Uint8Array(truthCodeCount);
    for (let r = 0; r < truthOfRow.length; r++) present[truthOfRow[r]!] = 1;
    for (let x = 1; x < truthCodeCount; x++) {
      if (present[x] === 0) continue;
      covering[x]!.push(x);
      coverSize[x] = 1;
    }
    return coveredBy(codes, codeCount, covering, coverSize);
  }
  const seen = pairsSeen(truthCodeCount * codeCount, denseLimit);
  for (let r = 0; r < truthOfRow.length; r++) {
    const x = truthOfRow[r]!;
    // Missing is never asked for (the pool draws values, not gaps).
    if (x === 0) continue;
    const c = releasedOfRow[r]!;
    if (!seen.firstTime(x * codeCount + c)) continue;
    covering[x]!.push(c);
    coverSize[c]!++;
  }
  return coveredBy(codes, codeCount, covering, coverSize);
}

/** The column read through what each input value's released codes are (covering) and how many values each code covers. */
function coveredBy(codes: Uint32Array, codeCount: number, covering: readonly number[][], coverSize: Float64Array): ReleasedColumn {
  return {
    codes,
    codeCount,
    weights(x) {
      const w = new Float64Array(codeCount);
      for (const c of covering[x] ?? []) w[c] = 1 / coverSize[c]!;
      return w;
    },
    support: (x) => covering[x] ?? [],
  };
}

/** Pairs already met: one byte per possible pair while there are few (a million rows test each), a set beyond. */
function pairsSeen(possible: number, denseLimit: number): { firstTime(pair: number): boolean } {
  if (possible <= denseLimit) {
    const met = new Uint8Array(possible);
    return {
      firstTime(pair) {
        if (met[pair] === 1) return false;
        met[pair] = 1;
        return true;
      },
    };
  }
  const met = new Set<number>();
  return {
    firstTime(pair) {
      if (met.has(pair)) return false;
      met.add(pair);
      return true;
    },
  };
}

/** Released codes by value text: a released value counts for the input value it spells. */
function codeByText(dictionary: readonly string[]): Map<string, number> {
  const byText = new Map<string, number>();
  dictionary.forEach((value, c) => {
    if (!byText.has(value)) byText.set(value, c);
  });
  return byText;
}

/** A column whose released values are input values, matched by their text. */
export function textColumn(truthDictionary: readonly string[], dictionary: readonly string[], codes: Uint32Array): ReleasedColumn {
  const byText = codeByText(dictionary);
  const codeOf = (x: number): number | undefined => byText.get(truthDictionary[x]!);
  return {
    codes,
    codeCount: dictionary.length,
    weights(x) {
      const w = new Float64Array(dictionary.length);
      const c = codeOf(x);
      if (c !== undefined) w[c] = 1;
      return w;
    },
    support: (x) => {
      const c = codeOf(x);
      return c === undefined ? [] : [c];
    },
  };
}

/**
 * A sensitive column randomized at retention p over a domain of m values: a
 * released y counts (1[y = x] − (1−p)/m)/p toward x, whose expectation is 1[true
 * value = x]. Summed over records this is the estimator of Wang, Han, Fu §6
 * (est = (count − marginal·(1−p)/m)/p); over independently randomized columns the
 * product of these weights stays unbiased.
 */
export function randomizedColumn(truthDictionary: readonly string[], domain: readonly string[], codes: Uint32Array, retention: number, domainSize: number): ReleasedColumn {
  const byText = codeByText(domain);
  const off = -(1 - retention) / domainSize / retention;
  return {
    codes,
    codeCount: domain.length,
    weights(x) {
      const w = new Float64Array(domain.length).fill(off);
      const c = byText.get(truthDictionary[x]!);
      if (c !== undefined) w[c] = w[c]! + 1 / retention;
      return w;
    },
    support: () => null,
  };
}

/** One line of a bucketized release's sensitive table: a value listed in a bucket with its count. */
export interface BucketEntry {
  readonly bucket: number;
  readonly value: string;
  readonly count: number;
}

/**
 * A sensitive column published apart, by bucket (β-privacy's ST): a record of
 * bucket B counts count_B(x)/Σ_v count_B(v) toward x, fake values included as
 * the release lists them (the reader cannot tell them apart).
 */
export function bucketColumn(truthDictionary: readonly string[], bucketOfRecord: Uint32Array, bucketCount: number, entries: readonly BucketEntry[]): ReleasedColumn {
  const listed = new Float64Array(bucketCount);
  const byValue = new Map<string, { bucket: number; count: number }[]>();
  for (const e of entries) {
    listed[e.bucket]! += e.count;
    let list = byValue.get(e.value);
    if (!list) byValue.set(e.value, (list = []));
    list.push({ bucket: e.bucket, count: e.count });
  }
  const listOf = (x: number) => byValue.get(truthDictionary[x]!) ?? [];
  return {
    codes: bucketOfRecord,
    codeCount: bucketCount,
    weights(x) {
      const w = new Float64Array(bucketCount);
      for (const { bucket, count } of listOf(x)) w[bucket] = w[bucket]! + count / listed[bucket]!;
      return w;
    },
    // A value is listed in most buckets: driving the sum from its buckets would read nearly every record anyway.
    support: () => null,
  };
}

/** A column the release does not hold: every record counts 1/|values| toward each value (nothing is known). */
export function withheldColumn(records: number, distinct: number): ReleasedColumn {
  const w = Float64Array.of(distinct > 0 ? 1 / distinct : 0);
  return { codes: new Uint32Array(records), codeCount: 1, weights: () => w, support: () => null };
}
