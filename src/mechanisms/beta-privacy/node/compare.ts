import { bucketedColumn, bucketGuesses } from '../../../jobs/method-kit/compare-bucketized.js';
import { recordsAsReleased, type NodeComparison } from '../../../jobs/method-kit/compare-kit.js';

/** Its attack: the paper's adversary, guessing the value the sensitive table lists most often in a target's bucket. */
export const betaPrivacyCompare: NodeComparison = {
  risk: (outcome, inputRows) => {
    const st = outcome.releases[1]?.table;
    const recovered = st && outcome.beta ? bucketGuesses(st, outcome.beta.fakeValues) : Number.NaN;
    return {
      share: recovered / inputRows,
      measure: "expected records whose sensitive value the adversary guesses right by taking the value the sensitive table lists most often in the record's bucket (fake values counted as listed); β bounds each record's chance by β_v",
    };
  },
  // The QI table is read as released; the sensitive column from the sensitive table by bucket.
  releasedRecords: (outcome, truth, poolColumns) => {
    const st = outcome.releases[1]?.table;
    const bucketed = outcome.beta && st ? outcome.beta.sensitive : undefined;
    return recordsAsReleased(outcome, truth, poolColumns, (truthColumn, qit) => (st && truthColumn.name === bucketed ? bucketedColumn(truthColumn, qit, st) : undefined));
  },
};
