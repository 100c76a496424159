import { makeColumn } from '../../../common/table/table.js';
import { releasedRecords } from '../../../jobs/method-kit/verify-classes.js';
import type { VerifyContext } from '../../../jobs/method-kit/node-mechanism.js';
import { ClassBuilder } from '../class-table.js';
import { engineModel, modelText, type GlobalRecodingSpec } from '../definition.js';
import { classMeets, modelContext, type PrivacyModel } from '../models.js';
import { quasiColumn, sensitiveColumn } from '../recoding-input.js';

/**
 * Every model re-checked on the released file alone: classes are the released records that share
 * their (generalized) quasi-identifiers. t-closeness compares with the input's distribution, suppressed
 * records included, which the release does not hold: it is re-checked only when the internal report
 * is at hand and says nothing was suppressed (then the released distribution is the input's).
 */
export function verifyGlobalRecoding(ctx: VerifyContext, spec: GlobalRecodingSpec): void {
  const { checks, report } = ctx;
  const { release, roles } = releasedRecords(ctx);
  const quasi = release.columns.filter((c) => roles.get(c.name) === 'quasi');
  const sensitiveName = report.input.columns.find((c) => c.role === 'sensitive')?.name;
  const sensitiveReleased = sensitiveName === undefined ? undefined : release.columns.find((c) => c.name === sensitiveName);
  // Every released value at level 0 of a hierarchy of one level: the classes of the release as it stands.
  const columns = quasi.map((c) => quasiColumn(makeColumn(c.name, c.codes, c.dictionary), undefined));
  const sensitive = sensitiveReleased ? sensitiveColumn(sensitiveReleased) : undefined;
  const table = new ClassBuilder(columns, sensitive, release.rowCount).fromRecords(columns.map(() => 0));
  const context = modelContext(sensitive, release.rowCount);
  const nothingSuppressed = ctx.internal?.output?.suppressed === 0;
  spec.models.forEach((spec) => {
    const model: PrivacyModel = engineModel(spec);
    const name = modelText(spec, sensitiveName);
    if (model.type === 't-closeness' && !nothingSuppressed) {
      checks.add(`${name} (not re-checked)`, true, 'the distance is to the distribution of every input record, suppressed ones included, which the release alone does not hold; re-checked when the internal report shows nothing was suppressed');
      return;
    }
    if ((model.type !== 'k-anonymity' && model.type !== 'maximum-risk' && model.type !== 'average-risk') && !sensitive) {
      checks.add(name, false, `the release has no sensitive column ${sensitiveName ?? ''}`);
      return;
    }
    if (model.type === 'average-risk') {
      const average = release.rowCount === 0 ? 0 : table.count / release.rowCount;
      checks.add(name, average <= model.risk, `${table.count} classes over ${release.rowCount} released records: average prosecutor risk ${average.toFixed(6)}`);
      return;
    }
    let failing = 0;
    for (let c = 0; c < table.count; c++) if (!classMeets(model, table, c, context)) failing++;
    checks.add(name, failing === 0, failing === 0 ? `all ${table.count} released classes meet it` : `${failing} of ${table.count} released classes do not meet it`);
  });
}
