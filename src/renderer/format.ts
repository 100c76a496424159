const integer = new Intl.NumberFormat('en-US');

/** Numbers for people: thousands separators, a fixed number of decimals, n/a for missing. */
export function formatNumber(value: number | null | undefined, digits = 4): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  if (Number.isInteger(value)) return integer.format(value);
  return value.toFixed(digits);
}

export function formatPercent(part: number, whole: number): string {
  if (whole === 0) return '0%';
  const p = (100 * part) / whole;
  return `${p > 0 && p < 0.1 ? p.toPrecision(2) : p.toFixed(1)}%`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
