import type { SearchTooLarge } from '../../common/recoding/search/search.js';
import { formatCount } from '../../common/format/numbers.js';

/** The refusal of a lattice search past its work limit, in the person's terms: what it did, the limit, what to change. */
export function searchTooLargeText(error: SearchTooLarge, rowCount: number): string {
  return (
    `the search of the lattice of levels stopped at its limit of ${formatCount(error.limit)} classes formed for ${formatCount(rowCount)} records (150 million plus 400 per record, a few minutes of work at most): ` +
    `it had visited ${formatCount(error.visited)} of its ${formatCount(error.nodes)} nodes without being able to prune the rest; use fewer hierarchy levels or fewer quasi-identifiers`
  );
}
