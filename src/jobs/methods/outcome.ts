import type { ReleaseTable } from '../../io/output/release-table.js';
import type { Report, SensitiveReport } from '../../io/report/report-model.js';

export interface ReleasedTable {
  /** File stem: "release" or "release-<column>". */
  readonly stem: string;
  readonly sheetName: string;
  readonly table: ReleaseTable;
}

/** What a method contributes to the report and the outputs. */
export interface MethodOutcome {
  readonly releases: readonly ReleasedTable[];
  readonly bySensitive: readonly SensitiveReport[];
  readonly method: Report['method'];
  readonly guarantee: Report['guarantee'];
  readonly summary: readonly string[];
  readonly warnings: readonly string[];
}
