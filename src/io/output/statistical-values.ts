import type { VariableMetadata } from '../input/import-types.js';
import { exactNumber } from './xlsx-writer.js';

// What the SPSS and Stata writers share: how a released value is recognised as a number, a date
// or a labelled code of the input, and the fixed-size binary fields both formats are made of.

/** A number that reads back as the same text: "007" or "1.50" written as numbers would change. */
export function canonicalNumber(value: string): boolean {
  return exactNumber(value) && String(Number(value)) === value;
}

/** Milliseconds since the Unix epoch of an ISO date (kind "date") or date-time; undefined for any other text. */
export function isoMilliseconds(value: string, kind: 'date' | 'datetime'): number | undefined {
  const match = kind === 'date' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = match.slice(1);
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Only real calendar dates (2021-02-30 is text), and no two-digit years Date.UTC would move to 19xx.
  return new Date(ms).toISOString().startsWith(value) ? ms : undefined;
}

/**
 * Label → numeric code, when every code is a number the format accepts and every label names one
 * code (two codes sharing a label cannot be told apart, so that label is left out).
 */
export function labelCodes(metadata: VariableMetadata | undefined, accepts: (code: number) => boolean): Map<string, number> | undefined {
  if (!metadata || metadata.valueLabels.length === 0) return undefined;
  const codes = new Map<string, number>();
  const shared = new Set<string>();
  for (const { code, label } of metadata.valueLabels) {
    const number = Number(code);
    if (code.trim() === '' || !Number.isFinite(number) || !accepts(number)) return undefined;
    if (codes.has(label) && codes.get(label) !== number) shared.add(label);
    codes.set(label, number);
  }
  for (const label of shared) codes.delete(label);
  return codes;
}

/** English month abbreviations, as both formats' header timestamps write them ("24 Nov 26", "24 Nov 2026 12:00"). */
export const MONTH_ABBREVIATIONS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Cuts text to at most `max` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > max) break;
    out += ch;
    bytes += size;
  }
  return out;
}

export function int32LE(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
}

export function float64LE(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return b;
}
