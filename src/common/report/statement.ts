/**
 * The sentences a mechanism writes about a release, each marked by where it may appear. Every
 * mechanism writes them in one environment-free file, `src/mechanisms/<type>/statement.ts`: the run
 * takes them from there, and verify writes the published ones again from the published job and
 * report and requires report.json to hold exactly those.
 */

/** The guarantee's words (report.json's guarantee.name, statement, formula, source). */
export interface GuaranteeWords {
  readonly name: string;
  readonly statement: string;
  readonly formula: string;
  readonly source: string;
}

/** What report.json publishes: written from the job's parameters and figures the release shows, nothing else. */
export interface PublicStatement {
  readonly guarantee: GuaranteeWords;
  readonly summary: readonly string[];
  readonly warnings: readonly string[];
}

/** What the internal report says beyond that: may state figures of the confidential data. */
export interface InternalStatement {
  readonly summary: readonly string[];
  readonly warnings: readonly string[];
}

export interface Statement {
  readonly published: PublicStatement;
  readonly internal: InternalStatement;
}

/**
 * The published sentences as verify writes them again from report.json. `assumed` names a figure
 * a sentence depends on that report.json does not state, taken from the sentence itself: verify
 * checks every other word and reports that choice as not checked.
 */
export interface WrittenAgain extends PublicStatement {
  readonly assumed?: { readonly figure: string; readonly needs: string };
}
