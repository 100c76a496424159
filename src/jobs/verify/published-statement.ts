import { isDeepStrictEqual } from 'node:util';
import type { Report } from '../../common/report/report-model.js';
import type { WrittenAgain } from '../../common/report/statement.js';
import type { CheckList } from '../method-kit/checks.js';

const CHECK = 'published sentences';

/**
 * report.json's guarantee words, summary and warnings must be the sentences the mechanism writes
 * (its statement.ts) for the published job's parameters and the report's own figures: an insider
 * who edits them and renders the report and the workbook again fails here, whatever the hashes say.
 * `write` is the mechanism's `publishedStatement`; `report` has passed the external schema. A figure
 * the sentences depend on that report.json does not state (`assumed`) is reported as not checked.
 */
export function checkPublishedStatement(report: Report, write: (report: Report) => WrittenAgain, checks: CheckList, name = CHECK, writer = report.method.type): void {
  let assumed: WrittenAgain['assumed'];
  checks.run(name, () => {
    const expected = write(report);
    assumed = expected.assumed;
    const problems = [
      ...(['name', 'statement', 'formula', 'source'] as const).filter((key) => report.guarantee[key] !== expected.guarantee[key]).map((key) => `guarantee.${key}`),
      ...listDifferences('summary', report.summary, expected.summary),
      ...listDifferences('warnings', report.warnings, expected.warnings),
    ];
    return problems.length === 0
      ? `the guarantee's words, the summary (${expected.summary.length}) and the warnings (${expected.warnings.length}) are the sentences ${writer} writes for the published parameters and figures`
      : { ok: false, detail: `report.json's ${problems.join(', ')} ${problems.length === 1 ? 'is not what' : 'are not what'} ${writer} writes for the published job's parameters and the report's figures` };
  });
  if (assumed) checks.notChecked(`${name}: ${assumed.figure}`, assumed.needs);
}

/** The fields of a published list of sentences that differ from the written one: `summary[2]`, or the count. */
function listDifferences(field: string, published: readonly string[], written: readonly string[]): string[] {
  if (isDeepStrictEqual(published, written)) return [];
  if (published.length !== written.length) return [`${field} (${published.length} sentence(s) where ${written.length} are written)`];
  return published.flatMap((sentence, i) => (sentence === written[i] ? [] : [`${field}[${i}]`]));
}
