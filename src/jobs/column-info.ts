import type { ColumnInfo } from '../common/ipc/api.js';
import type { ImportedTable } from '../io/input/import-types.js';
import type { DatedTable } from '../io/input/date-columns.js';

/** Columns with at most this many values list them all (the β table needs every value). */
const ALL_VALUES_UP_TO = 200;
const TOP_VALUES = 12;

/** Each column's summary as the wizard and `custos init` show it: type, counts and its most frequent values. */
export function columnInfo(imported: ImportedTable): ColumnInfo[] {
  const labels = new Map((imported.variables ?? []).flatMap((v) => (v.label ? [[v.name, v.label] as const] : [])));
  return imported.table.columns.map((c) => {
    const counts = new Uint32Array(c.dictionary.length);
    for (let i = 0; i < c.codes.length; i++) counts[c.codes[i]!]!++;
    const order = Array.from({ length: c.dictionary.length - 1 }, (_, k) => k + 1).sort((a, b) => counts[b]! - counts[a]!);
    const top = order.slice(0, c.distinct <= ALL_VALUES_UP_TO ? c.distinct : TOP_VALUES).map((code) => ({ value: c.dictionary[code]!, count: counts[code]! }));
    const label = labels.get(c.name);
    return { name: c.name, ...(label ? { label } : {}), type: c.type, distinct: c.distinct, missing: c.missing, top };
  });
}

/**
 * Each column's summary with what was found about its dates, from the table with dates typed as text
 * made ISO dates (readDateColumns): what the wizard's Open step and `custos init` both show and
 * suggest roles from, so a column gets the same suggestion whatever format the file is in.
 */
export function datedColumnInfo(dated: DatedTable): ColumnInfo[] {
  return columnInfo(dated.imported).map((c) => {
    const read = dated.read.find((r) => r.column === c.name);
    if (read) return { ...c, date: { reading: 'read', format: read.format, stated: read.stated } };
    const ambiguous = dated.ambiguous.find((a) => a.column === c.name);
    // Dates whichever their order: summarized (and their role suggested) as dates, as in every other format.
    if (ambiguous) return { ...c, type: 'date', date: { reading: 'ambiguous', formats: [...ambiguous.formats] } };
    const partial = dated.partial.find((p) => p.column === c.name);
    if (partial) return { ...c, date: { reading: 'partial', format: partial.format, unmatched: partial.unmatched.map((u) => ({ ...u })), count: partial.count } };
    return c;
  });
}
