import type { ReleaseTable } from '../../io/output/release-table.js';
import type { Report } from '../../common/report/report-model.js';
import type { Plan } from './plan.js';

export interface ReleasedTable {
  /** File stem of the CSV ("release", "qit", "st", "release-<column>") and the workbook sheet. */
  readonly stem: string;
  readonly sheetName: string;
  readonly table: ReleaseTable;
}

/** What a method contributes to the report and the outputs; the report builder adds the rest. */
export interface MethodOutcome {
  readonly plan: Plan;
  readonly releases: readonly ReleasedTable[];
  readonly method: Report['method'];
  readonly guarantee: Report['guarantee'];
  readonly risk: Report['risk'];
  readonly utility: Report['utility'];
  readonly buckets?: Report['buckets'];
  readonly beta?: Report['beta'];
  readonly anonymity?: Report['anonymity'];
  readonly dp?: Report['dp'];
  /** A chain's steps (src/jobs/chain/run-chain.ts); their published summary and warnings are `publishedChain`. */
  readonly chain?: Report['chain'];
  readonly publishedChain?: Report['chain'];
  /** Internal only: records deleted with their class. */
  readonly suppressed?: number;
  readonly summary: readonly string[];
  /** The summary safe to publish: nothing about the confidential data beyond what the release shows. */
  readonly externalSummary: readonly string[];
  readonly warnings: readonly string[];
  /** Warnings a reader of the published report needs; they must state no fact of the confidential data. Default: none. */
  readonly externalWarnings?: readonly string[];
  /** An assessment only: the refusal a run of this setting would end with (the preview is shown all the same). */
  readonly cannotRun?: { readonly message: string; readonly key: string };
  /**
   * Internal-only figures still being measured (only when the context asked for `settleLater`): this
   * outcome lacks them, and settle() returns the same outcome with them. Nothing the release folder
   * carries may differ between the two.
   */
  readonly pending?: PendingFigures;
}

export interface PendingFigures {
  /** The outcome with its figures; waits for them. */
  settle(): MethodOutcome;
  /** Stops measuring (the run failed or was cancelled); safe to call after settle. */
  abandon(): void;
}
