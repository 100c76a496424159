import type { ReviewSettings } from '../../common/review/release-review.js';
import { JobError } from '../../common/job/job-error.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * The sampling fraction π of `records` records under the population the job's `review` states
 * (review.samplingFraction, or the records over review.populationSize), else undefined: the one
 * reading of the population for the disclosure review and the internal report's risk profile.
 * `whose` names the records in the refusal of a population smaller than them.
 */
export function samplingFraction(review: ReviewSettings | undefined, records: number, whose: string): number | undefined {
  if (review?.samplingFraction !== undefined) return review.samplingFraction;
  if (review?.populationSize === undefined) return undefined;
  if (review.populationSize < records) throw new JobError(`the population (${formatCount(review.populationSize)}) is smaller than the ${formatCount(records)} ${whose}`, 'review.populationSize');
  return records / review.populationSize;
}
