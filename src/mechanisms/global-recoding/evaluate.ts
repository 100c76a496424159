import type { ClassTable } from './class-table.js';
import { classMeets, type ModelContext, type PrivacyModel } from './models.js';

export interface NodeCheck {
  /** 1 for each suppressed class. */
  readonly suppressed: Uint8Array;
  readonly suppressedRecords: number;
  /** Every model met with at most the allowed number of records suppressed. */
  readonly satisfies: boolean;
}

/** ARX's absolute suppression limit: ⌊limit · n⌋ records. */
export function maxSuppressed(limit: number, rowCount: number): number {
  return Math.floor(limit * rowCount);
}

/**
 * Which classes a node suppresses, as ARX does: every class that fails a class-by-class model is
 * suppressed; then, for an average-risk threshold, the smallest released classes (all classes
 * below a size, the smallest size that suffices) until the released records' mean risk
 * (classes / records) meets it. The node satisfies the models if no more than `limit` records go.
 */
export function checkNode(table: ClassTable, models: readonly PrivacyModel[], ctx: ModelContext, limit: number): NodeCheck {
  const suppressed = new Uint8Array(table.count);
  let suppressedRecords = 0;
  const local = models.filter((m) => m.type !== 'average-risk');
  for (let c = 0; c < table.count; c++) {
    for (const model of local) {
      if (!classMeets(model, table, c, ctx)) {
        suppressed[c] = 1;
        suppressedRecords += table.sizes[c]!;
        break;
      }
    }
  }
  for (const model of models) {
    if (model.type !== 'average-risk') continue;
    suppressedRecords += suppressForAverageRisk(table, suppressed, model.risk);
  }
  return { suppressed, suppressedRecords, satisfies: suppressedRecords <= limit };
}

/** Suppresses every released class smaller than the least size s for which the rest has mean risk ≤ r; returns the records it adds. */
function suppressForAverageRisk(table: ClassTable, suppressed: Uint8Array, risk: number): number {
  const bySize = new Map<number, number>();
  let classes = 0;
  let records = 0;
  for (let c = 0; c < table.count; c++) {
    if (suppressed[c]) continue;
    const size = table.sizes[c]!;
    bySize.set(size, (bySize.get(size) ?? 0) + 1);
    classes++;
    records += size;
  }
  const sizes = [...bySize.keys()].sort((a, b) => a - b);
  let threshold = 0;
  for (const size of sizes) {
    if (records === 0 || classes / records <= risk) break;
    const n = bySize.get(size)!;
    classes -= n;
    records -= n * size;
    threshold = size;
  }
  let added = 0;
  if (threshold > 0) {
    for (let c = 0; c < table.count; c++) {
      if (!suppressed[c] && table.sizes[c]! <= threshold) {
        suppressed[c] = 1;
        added += table.sizes[c]!;
      }
    }
  }
  return added;
}
