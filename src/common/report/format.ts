/** Escapes text for HTML element content and attribute values. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function num(value: number | undefined | null, digits = 4): string {
  if (value === undefined || value === null || Number.isNaN(value)) return 'n/a';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  // Tiny probabilities (δ) would print as 0.000000.
  if (Math.abs(value) < 1e-4) return value.toExponential(4);
  return value.toFixed(digits);
}

/** An ISO time as people read it: 2026-11-25 10:12 UTC (the JSON keeps the ISO form). */
export function readableTime(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}).*Z$/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

/** A share of records as a sentence gives it: one decimal, two significant digits below 0.1%. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '0%';
  const value = (100 * part) / whole;
  return `${value < 0.1 && value > 0 ? value.toPrecision(2) : value.toFixed(1)}%`;
}
