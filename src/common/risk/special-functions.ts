/**
 * ln Γ(x) for x > 0: the recurrence Γ(x) = Γ(x + k) / (x (x+1) … (x+k−1)) lifts x to 10 or more,
 * where Stirling's series with terms to x⁻¹³ is accurate to about one unit in the last place.
 */
export function logGamma(x: number): number {
  if (!(x > 0)) return Number.NaN;
  let shift = 0;
  let product = 1;
  let y = x;
  while (y < 10) {
    product *= y;
    y += 1;
    shift += 1;
  }
  const inverse = 1 / y;
  const inverse2 = inverse * inverse;
  // Bernoulli terms B₂ₖ / (2k (2k−1) y^(2k−1)).
  const series =
    inverse *
    (1 / 12 +
      inverse2 * (-1 / 360 + inverse2 * (1 / 1260 + inverse2 * (-1 / 1680 + inverse2 * (1 / 1188 + inverse2 * (-691 / 360360 + inverse2 * (1 / 156)))))));
  const stirling = (y - 0.5) * Math.log(y) - y + 0.5 * Math.log(2 * Math.PI) + series;
  return shift === 0 ? stirling : stirling - Math.log(product);
}

/**
 * P(X = 1) for X hypergeometric: `draws` records drawn without replacement from `population`
 * records of which `successes` are marked. Computed as a product of ratios near one (in logs), so
 * populations of millions lose no digits: P = K · (n/N) · ∏_{j=0}^{K−2} (N−n−j)/(N−1−j).
 */
export function hypergeometricProbabilityOfOne(population: number, successes: number, draws: number): number {
  if (successes < 1 || draws < 1 || successes > population || draws > population) return 0;
  // One marked record and n−1 unmarked ones: impossible when fewer than n−1 are unmarked.
  if (population - successes < draws - 1) return 0;
  let logProduct = 0;
  for (let j = 0; j <= successes - 2; j++) logProduct += Math.log1p(-(draws - 1) / (population - 1 - j));
  return successes * (draws / population) * Math.exp(logProduct);
}
