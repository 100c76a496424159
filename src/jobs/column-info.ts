import type { ColumnInfo } from '../common/ipc/api.js';
import type { ImportedTable } from '../io/input/import-types.js';

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
