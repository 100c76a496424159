/**
 * The corruption attack: the adversary learns the true values of c
 * rows of a bucket, and the sensitive-table entry may carry k fake values
 * (distinct, absent from the bucket, count 1). Returns the adversary's largest
 * posterior that a remaining row holds a given value, with the corrupted rows
 * chosen to maximize it.
 */
export function worstPosterior(realCounts: readonly number[], fakes: number, corrupted: number): number {
  const size = realCounts.reduce((a, b) => a + b, 0);
  if (corrupted >= size) return 1;
  const remainingRows = size - corrupted;
  const singletonsReal = realCounts.filter((c) => c === 1).length;
  const repeatedRows = size - singletonsReal;
  let worst = 0;
  // A value listed at least twice is certainly real: corrupt the other rows first.
  for (const c of realCounts) {
    if (c < 2) continue;
    const left = Math.min(c, remainingRows);
    worst = Math.max(worst, left / remainingRows);
  }
  // A value listed once is real with probability (n1' − k)/n1'; corrupting repeated rows first keeps n1' large.
  if (singletonsReal > 0) {
    const singletonsCorrupted = Math.max(0, corrupted - repeatedRows);
    const listedOnce = singletonsReal + fakes - singletonsCorrupted;
    if (singletonsReal - singletonsCorrupted > 0) {
      worst = Math.max(worst, (listedOnce - fakes) / (listedOnce * remainingRows));
    }
  }
  return Math.min(1, worst);
}

/** Fakes needed so the inference stays ≤ β under c corruptions of a bucket of distinct values. */
export function fakesNeeded(betaCeilInverse: number, bucketSize: number, corrupted: number): number {
  return Math.max(0, betaCeilInverse - bucketSize + corrupted);
}
