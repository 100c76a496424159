import { qualityOf, type Quality } from '../../utility/quality.js';
import { ClassBuilder } from './class-table.js';
import type { QuasiColumn } from './recoding-input.js';

/**
 * The quality measures of a node of the lattice (src/common/utility/quality.ts): each column at its
 * level, the records of suppressed classes (suppressed[classOf[r]] = 1) suppressed; classOf are the
 * node's classes (ClassBuilder.fromRecords(node).classOf). A generalized
 * value's coverage is the leaves it stands for, ARX's domain share times the domain's size.
 */
export function nodeQuality(columns: readonly QuasiColumn[], node: readonly number[], classOf: Uint32Array, suppressed: Uint8Array, rowCount: number): Quality {
  const released = new Uint8Array(rowCount);
  for (let r = 0; r < rowCount; r++) released[r] = suppressed[classOf[r]!] ? 0 : 1;
  // The input's tuples: the classes of the bottom node.
  const tupleOf = new ClassBuilder(columns, undefined, rowCount).fromRecords(columns.map(() => 0)).classOf;
  return qualityOf({
    rowCount,
    released,
    classOf,
    tupleOf,
    columns: columns.map((c, j) => {
      const level = node[j]!;
      const lift = c.lift[level]!;
      return {
        name: c.name,
        level,
        depth: c.depth,
        original: c.codes,
        generalized: Uint32Array.from(c.codes, (code) => lift[code]!),
        coverage: Float64Array.from(c.share[level]!, (share) => Math.max(1, Math.round(share * c.domainSize))),
        domainSize: c.domainSize,
      };
    }),
  });
}
