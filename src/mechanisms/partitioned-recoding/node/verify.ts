import { minOf } from '../../../common/extremes.js';
import type { VerifyContext } from '../../../jobs/method-kit/node-mechanism.js';
import { countBy, tupleKeys } from '../../../jobs/method-kit/released-table.js';
import { releasedRecords } from '../../../jobs/method-kit/verify-classes.js';
import type { PartitionedRecodingSpec } from '../definition.js';

/** The part column the method adds beside the released columns. */
const ADDED_COLUMNS = ['part'];

/** The model of every class within every part, from the released records alone (t-closeness needs the original's parts). */
export function verifyPartitionedRecoding(ctx: VerifyContext, spec: PartitionedRecodingSpec): void {
  const { checks, report } = ctx;
  const { release, roles } = releasedRecords(ctx, ADDED_COLUMNS);
  const quasi = release.columns.filter((c) => roles.get(c.name) === 'quasi').map((c) => c.name);
  const byPart = release.columns.some((c) => c.name === 'part') ? ['part', ...quasi] : quasi;
  const classes = countBy(tupleKeys(release, byPart));
  if (spec.model.type === 'k-anonymity') {
    const k = spec.model.k;
    const small = [...classes.values()].filter((n) => n < k);
    checks.add('k of every class in every part', small.length === 0, small.length === 0 ? `${classes.size} classes, the smallest has ${minOf(classes.values())} ≥ k = ${k}` : `${small.length} class(es) below k = ${k}`);
  } else {
    const sensitive = report.input.columns.find((c) => c.role === 'sensitive')!.name;
    const keys = tupleKeys(release, byPart);
    const values = tupleKeys(release, [sensitive]);
    const distinct = new Map<string, Set<string>>();
    keys.forEach((key, i) => {
      let set = distinct.get(key);
      if (!set) distinct.set(key, (set = new Set()));
      set.add(values[i]!);
    });
    if (spec.model.type === 'l-diversity') {
      const l = spec.model.l;
      const weak = [...distinct.values()].filter((s) => s.size < l);
      checks.add('ℓ-diversity of every class', weak.length === 0, weak.length === 0 ? `${distinct.size} classes, each with at least ${l} distinct values` : `${weak.length} class(es) with fewer than ${l} distinct values`);
    } else {
      // The reference distribution is the whole part's, suppressed records included, which the release does not show.
      checks.add('t-closeness (not re-checked)', true, 'the distance needs each part\'s full distribution, suppressed records included, which only the original holds; not verifiable from the release alone');
    }
  }
}
