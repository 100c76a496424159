/**
 * Numbers for people, in one place: the wizard, the reports (HTML, PDF, facts), the command line's
 * summaries and the published sentences all print a figure the same way, so δ = 0.00001 reads
 * 1.0000e-5 wherever it appears (never 0.0000). Environment-free: the browser and Node both use it.
 */

const integer = new Intl.NumberFormat('en-US');

/** A count with thousands separators: 30,162. */
export function formatCount(value: number): string {
  return integer.format(value);
}

/**
 * A figure: whole numbers with thousands separators, others with `digits` decimals, tiny ones
 * (below 1e-4, a δ or a probability) in exponent form, n/a for a missing value, ∞ for an infinite one.
 */
export function formatNumber(value: number | null | undefined, digits = 4): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  if (Number.isInteger(value)) return formatCount(value);
  // Tiny probabilities (δ) would print as 0.0000.
  if (Math.abs(value) < 1e-4) return value.toExponential(4);
  return value.toFixed(digits);
}

/**
 * A figure with exactly `digits` decimals, whole numbers included (an error of 0 reads 0.0000), n/a
 * for a missing or non-finite value: the form of the command line's summaries.
 */
export function formatFixed(value: number | undefined, digits = 4): string {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits);
}

/** A share as a percentage with one decimal (two significant digits below 0.1 %). */
export function formatPercent(part: number, whole: number): string {
  if (whole === 0) return '0%';
  const p = (100 * part) / whole;
  return `${p > 0 && p < 0.1 ? p.toPrecision(2) : p.toFixed(1)}%`;
}

/** A file size in B, KB, MB or GB (binary multiples). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
