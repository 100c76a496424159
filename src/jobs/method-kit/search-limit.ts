import type { SearchTooLarge } from '../../common/recoding/search/search.js';

/** The refusal of a lattice search past its work limit, in the person's terms: what it did, the limit, what to change. */
export function searchTooLargeText(error: SearchTooLarge, rowCount: number): string {
  return (
    `the search of the lattice of levels stopped at its limit of ${error.limit.toLocaleString('en-US')} classes formed for ${rowCount.toLocaleString('en-US')} records (150 million plus 400 per record, a few minutes of work at most): ` +
    `it had visited ${error.visited.toLocaleString('en-US')} of its ${error.nodes.toLocaleString('en-US')} nodes without being able to prune the rest; use fewer hierarchy levels or fewer quasi-identifiers`
  );
}
