import { declaredPositions } from '../../../common/table/sensitive-domain.js';
import type { Column } from '../../../common/table/table.js';
import { domainCheck } from '../../../jobs/method-kit/analyze.js';
import type { ResolvedDomain } from '../../../jobs/method-kit/domains.js';
import { JobError } from '../../../common/job/job-error.js';
import type { DpCountsSpec } from '../definition.js';

export function columnIndex(columns: readonly Column[], name: string, key: string): number {
  const i = columns.findIndex((c) => c.name === name);
  if (i < 0) throw new JobError(`the input has no column "${name}"`, key);
  return i;
}

function sortedCodes(column: Column, codes: readonly number[]): number[] {
  const numeric = column.type === 'integer' || column.type === 'decimal';
  return [...codes].sort((a, b) => (numeric ? Number(column.dictionary[a]) - Number(column.dictionary[b]) : column.dictionary[a]! < column.dictionary[b]! ? -1 : 1));
}

export interface PublicColumns {
  /** The input's columns, each dictionary extended by the values a query or a declared domain names but the data lack. */
  readonly columns: readonly Column[];
  /** The cells of a column: its declared domain in order, or else the values in the data (which then are disclosed). */
  cells(column: number): number[];
  readonly declared: ReadonlySet<number>;
}

/**
 * Values named by a query or a declared domain but absent from the data get
 * codes no row holds: they count 0 and print as themselves, so the shape of
 * the released table never tells whether a value occurs.
 */
export function publicColumns(columns: readonly Column[], spec: DpCountsSpec, domains: ReadonlyMap<string, ResolvedDomain>, inputPath: string): PublicColumns {
  const named = new Map<number, string[]>();
  const declared = new Map<number, readonly string[]>();
  for (const [name, { values }] of domains) {
    // "from-data": the values present, as without a domain (the run publishes the warning).
    if (!values) continue;
    const key = `method.domains.${name}`;
    const c = columnIndex(columns, name, key);
    domainCheck(key, inputPath, () => declaredPositions(columns[c]!, values));
    declared.set(c, values);
    named.set(c, [...values]);
  }
  if (spec.queries !== 'marginals') {
    for (const q of spec.queries) {
      for (const [name, value] of Object.entries(q.where)) {
        const c = columns.findIndex((col) => col.name === name);
        if (c >= 0) named.set(c, [...(named.get(c) ?? []), value]);
      }
    }
  }
  const extended = columns.map((column, c) => {
    const present = new Set(column.dictionary);
    const absent = [...new Set((named.get(c) ?? []).filter((v) => !present.has(v)))];
    return absent.length === 0 ? column : { ...column, dictionary: [...column.dictionary, ...absent] };
  });
  return {
    columns: extended,
    declared: new Set(declared.keys()),
    cells: (c) => {
      const values = declared.get(c);
      if (values) return values.map((v) => extended[c]!.dictionary.indexOf(v));
      return sortedCodes(columns[c]!, Array.from({ length: columns[c]!.dictionary.length - 1 }, (_, i) => i + 1));
    },
  };
}
