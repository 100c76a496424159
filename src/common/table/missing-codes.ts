import type { Column } from './table.js';

/** A value that looks like a code for a missing value, and the columns that hold it. */
export interface MissingCandidate {
  readonly code: string;
  readonly columns: readonly string[];
  /** Records holding it, over all those columns. */
  readonly count: number;
}

/** Words and marks statistical packages and people write for "no value" (SAS and Stata's ".", R's NA). */
const TOKENS = new Set(['NA', 'N/A', 'n/a', 'na', 'NULL', 'null', '.', '?', '-', '']);
/** Numbers used as missing codes: the negative ones below any real value, the nines above them. */
const NEGATIVE = new Set(['-1', '-7', '-8', '-9', '-99', '-999', '-9999']);
const NINES = new Set(['99', '999', '9999', '99999']);

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * Values of the file that look like missing-value codes, for the wizard to propose (never applied
 * unasked): the usual tokens anywhere ("NA", ".", an empty cell), and in a column of numbers a
 * negative code where every other value is ≥ 0, or a run of nines at least twice every other value
 * (999 beside ages up to 95). Codes the reading already treats as missing are not in the dictionaries.
 */
export function missingCandidates(columns: readonly Column[]): MissingCandidate[] {
  const found = new Map<string, { columns: string[]; count: number }>();
  for (const column of columns) {
    const counts = new Uint32Array(column.dictionary.length);
    for (let i = 0; i < column.codes.length; i++) counts[column.codes[i]!]!++;
    const numbers: number[] = [];
    const codes: { value: string; code: number }[] = [];
    let numeric = true;
    for (let code = 1; code < column.dictionary.length; code++) {
      const value = column.dictionary[code]!;
      if (TOKENS.has(value.trim())) codes.push({ value, code });
      else if (NUMBER.test(value)) numbers.push(Number(value));
      else numeric = false;
    }
    if (numeric && numbers.length > 1) {
      for (let code = 1; code < column.dictionary.length; code++) {
        const value = column.dictionary[code]!;
        // At most eleven values are checked against the others, each in one pass.
        if (!NEGATIVE.has(value) && !NINES.has(value)) continue;
        const v = Number(value);
        const below = NEGATIVE.has(value) && numbers.every((n) => n === v || n >= 0);
        const above = NINES.has(value) && numbers.every((n) => n === v || 2 * n <= v);
        if (below || above) codes.push({ value, code });
      }
    }
    for (const { value, code } of codes) {
      const entry = found.get(value) ?? { columns: [], count: 0 };
      entry.columns.push(column.name);
      entry.count += counts[code]!;
      found.set(value, entry);
    }
  }
  return [...found].map(([code, e]) => ({ code, columns: e.columns, count: e.count })).sort((a, b) => b.count - a.count);
}
