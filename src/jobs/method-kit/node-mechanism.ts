import type { JobWith } from '../../common/job/job-parts.js';
import type { Report } from '../../common/report/report-model.js';
import type { WrittenAgain } from '../../common/report/statement.js';
import type { Table } from '../../common/table/table.js';
import type { ImportedTable } from '../../io/input/import-types.js';
import type { CheckList } from './checks.js';
import type { NodeComparison } from './compare-kit.js';
import type { MethodContext } from './method-context.js';
import type { MethodOutcome } from './outcome.js';

/** What verify hands a mechanism's own checks of a release. */
export interface VerifyContext {
  readonly dir: string;
  readonly report: Report;
  /** The internal report, when its folder was found: the only source of the input's own facts. */
  readonly internal?: Report;
  readonly job: JobWith<{ readonly type: string }>;
  readonly original?: Table;
  readonly checks: CheckList;
  /**
   * A chain's identity step: the released table that holds the quasi-identifiers, the second step's
   * first table (β-privacy's QIT), where the step's own release ("release") would be. Its columns
   * are the second step's to check (verify checks that step on the same files).
   */
  readonly quasiTable?: ReleasedTableName;
}

/**
 * A mechanism's Node part: how it runs (assess and release), how verify
 * re-checks its guarantee from the released files (its part of the report is
 * its definition's `reportView`, environment-free). S is the mechanism's parsed method object.
 */
export interface NodeMechanism<S> {
  run(job: JobWith<S>, imported: ImportedTable, ctx: MethodContext): MethodOutcome;
  /** Adds the guarantee's checks to ctx.checks; returns what was checked, in one line. */
  verify(ctx: VerifyContext, spec: S): string;
  /** False when the release is the mechanism's own tables (answers), not the input's columns. */
  readonly releasesInputColumns: boolean;
  /**
   * How compare measures its release (compare.ts of its Node part): null exactly when its
   * definition's `compare.releasesRecords` is false (a release of answers; the registry test checks the two agree).
   */
  readonly compare: NodeComparison | null;
  /**
   * The tables a run of this job releases, by file stem and workbook sheet, in the order the run
   * writes them (verify derives the release's files from them and writes them again); by default one
   * table, "release" on the sheet "Release". `report` is the published report (its sensitive columns'
   * order, for one).
   */
  readonly releasedTables?: (job: JobWith<S>, report: Report) => readonly ReleasedTableName[];
  /**
   * The published sentences (guarantee words, summary, warnings) written again from the published
   * report: the mechanism's `statement.ts`. Verify requires report.json to hold exactly these.
   * Required, so that no mechanism's published words go unchecked.
   */
  readonly publishedStatement: (report: Report) => WrittenAgain;
  /**
   * For the disclosure review: each released record's frequency fk on the released quasi-identifiers
   * when a released value stands for any value (local suppression's "*"), or null when records match
   * only on equal values (classes of identical tuples). Required, so that a mechanism that releases
   * wildcards cannot be reviewed as if it did not.
   */
  readonly releasedFrequencies: ((job: JobWith<S>, quasi: readonly ReleasedColumnCodes[], rowCount: number) => Uint32Array | null) | null;
  /**
   * For a method that deletes the records of classes failing its model: the job key its k is given
   * under (where to lower it), so that a release with no records is refused naming it; null for a
   * method that deletes no class. Required, so that a new recoding cannot release an empty file.
   */
  readonly emptyReleaseKey: string | null;
  /**
   * Whether the parameters alone decide the released values (no random draw): a release equal to the
   * input then means they change nothing, and the run warns so. A randomized release may equal a
   * small input by chance, which says nothing of its parameters.
   */
  readonly deterministic: boolean;
}

/** A released column's code of every record and its dictionary. */
export interface ReleasedColumnCodes {
  readonly codes: Uint32Array;
  readonly dictionary: readonly string[];
}

/** A released table's file stem ("release", "qit") and workbook sheet ("Release", "QIT"). */
export interface ReleasedTableName {
  readonly stem: string;
  readonly sheetName: string;
}

/** The one table most methods release. */
export const SINGLE_RELEASE: readonly ReleasedTableName[] = [{ stem: 'release', sheetName: 'Release' }];

/** A verify that runs the given checks from the release (and the original, when given) and says so in one line. */
export function verifiedBy<S>(check: (ctx: VerifyContext, spec: S) => void): NodeMechanism<S>['verify'] {
  return (ctx, spec) => {
    check(ctx, spec);
    return `${ctx.job.method.type}: checked from the released files${ctx.original ? ' and the original' : ''}`;
  };
}
