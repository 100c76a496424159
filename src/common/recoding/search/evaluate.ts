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
  // With a research subset (δ-presence), a class of no subset record releases nothing and cannot be
  // suppressed: it passes, unless δmin > 0, which then no suppression can meet (ARX fails the node).
  const presence = table.population ? models.find((m) => m.type === 'delta-presence') : undefined;
  let absentFails = false;
  for (let c = 0; c < table.count; c++) {
    if (table.population && table.sizes[c] === 0) {
      if (presence && presence.deltaMin > 0) absentFails = true;
      continue;
    }
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
  return { suppressed, suppressedRecords, satisfies: !absentFails && suppressedRecords <= limit };
}

/**
 * ARX's enforcement of a risk threshold (RiskBasedCriterion.enforce): released classes in ascending
 * size, the fewest smallest ones suppressed until the rest meets it. Removing a class no larger than
 * the mean lowers classes/records, so the least such prefix is found by a scan. Classes of equal size
 * are taken in the order of their codes (column by column), so the choice does not depend on how the
 * classes were formed (ARX takes them in its hash order). Returns the records it adds.
 */
function suppressForAverageRisk(table: ClassTable, suppressed: Uint8Array, risk: number): number {
  const released: number[] = [];
  let classes = 0;
  let records = 0;
  for (let c = 0; c < table.count; c++) {
    if (suppressed[c]) continue;
    released.push(c);
    classes++;
    records += table.sizes[c]!;
  }
  if (records === 0 || classes / records <= risk) return 0;
  const columns = Array.from({ length: table.width }, (_, j) => table.column(j));
  released.sort((a, b) => {
    const d = table.sizes[a]! - table.sizes[b]!;
    if (d !== 0) return d;
    for (const codes of columns) if (codes[a] !== codes[b]) return codes[a]! - codes[b]!;
    return 0;
  });
  let added = 0;
  for (const c of released) {
    suppressed[c] = 1;
    added += table.sizes[c]!;
    classes--;
    records -= table.sizes[c]!;
    if (records === 0 || classes / records <= risk) break;
  }
  return added;
}
