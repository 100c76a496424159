import type { Column } from '../table/table.js';

/**
 * The categories a column is analysed in (the classifier's features and target, the contingency
 * tables' rows and columns), from the input's values. A column of few values keeps each value as a
 * category; an orderable column (numbers, dates) of more than ORDERED_AS_IS values is cut into
 * ORDERED_BINS bins of about equal counts at value boundaries (equal values share a bin); a column of
 * text with more than MAX_CATEGORIES values, or any with more than MAX_VALUES, is left out: nearly a
 * value per record tells a classifier nothing it can use on another record, and its table would be
 * mostly empty cells.
 */
export const MAX_CATEGORIES = 64;
export const ORDERED_AS_IS = 16;
export const ORDERED_BINS = 10;
export const MAX_VALUES = 2000;

export interface ValueBins {
  readonly column: string;
  /** binOf[input code]: the category of that value; −1 for missing (code 0). */
  readonly binOf: Int32Array;
  /** Each category in words: the value, or "lo – hi" for a bin of ordered values. */
  readonly labels: readonly string[];
}

export type Binning = { readonly bins: ValueBins } | { readonly leftOut: string };

const orderable = (c: Column): boolean => c.type === 'integer' || c.type === 'decimal' || c.type === 'date';

export function valueBins(c: Column): Binning {
  const values = c.dictionary.length - 1;
  if (values === 0) return { leftOut: 'no value' };
  if (values > MAX_VALUES) return { leftOut: `${values.toLocaleString('en-US')} distinct values (more than ${MAX_VALUES.toLocaleString('en-US')}): nearly one per record` };
  const binOf = new Int32Array(c.dictionary.length).fill(-1);
  if (!orderable(c) || values <= ORDERED_AS_IS) {
    if (values > MAX_CATEGORIES) return { leftOut: `${values} distinct values of text (more than ${MAX_CATEGORIES})` };
    // Categories in the order of the dictionary (first seen): the order carries no meaning.
    for (let code = 1; code <= values; code++) binOf[code] = code - 1;
    return { bins: { column: c.name, binOf, labels: orderable(c) ? sortedLabels(c, binOf) : c.dictionary.slice(1) } };
  }
  const counts = new Float64Array(c.dictionary.length);
  for (const code of c.codes) counts[code]!++;
  const order = orderedCodes(c);
  const present = order.reduce((s, code) => s + counts[code]!, 0);
  // A value's bin from its middle rank: equal-count bins, equal values together.
  const raw = new Int32Array(c.dictionary.length);
  let before = 0;
  for (const code of order) {
    raw[code] = Math.min(ORDERED_BINS - 1, Math.floor((ORDERED_BINS * (before + counts[code]! / 2)) / Math.max(1, present)));
    before += counts[code]!;
  }
  // Bins renumbered 0.. without gaps, labelled by their smallest and largest value.
  const labels: string[] = [];
  let last = -1;
  let first = '';
  let previous = '';
  for (const code of order) {
    if (raw[code] !== last) {
      if (last >= 0) labels.push(rangeLabel(first, previous));
      last = raw[code]!;
      first = c.dictionary[code]!;
    }
    binOf[code] = labels.length;
    previous = c.dictionary[code]!;
  }
  labels.push(rangeLabel(first, previous));
  return { bins: { column: c.name, binOf, labels } };
}

/** An orderable column of few values: its categories numbered in value order. */
function sortedLabels(c: Column, binOf: Int32Array): string[] {
  const order = orderedCodes(c);
  order.forEach((code, i) => (binOf[code] = i));
  return order.map((code) => c.dictionary[code]!);
}

/** The codes 1.. in the order of their values: numbers by value, ISO dates as text (which is their order). */
function orderedCodes(c: Column): number[] {
  const codes = Array.from({ length: c.dictionary.length - 1 }, (_, i) => i + 1);
  if (c.type === 'date') return codes.sort((a, b) => (c.dictionary[a]! < c.dictionary[b]! ? -1 : c.dictionary[a]! > c.dictionary[b]! ? 1 : 0));
  return codes.sort((a, b) => Number(c.dictionary[a]) - Number(c.dictionary[b]) || a - b);
}

const rangeLabel = (lo: string, hi: string): string => (lo === hi ? lo : `${lo} – ${hi}`);
