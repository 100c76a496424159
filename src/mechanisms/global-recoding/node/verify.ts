import { makeColumn } from '../../../common/table/table.js';
import { releasedRecords } from '../../../jobs/method-kit/verify-classes.js';
import type { VerifyContext } from '../../../jobs/method-kit/node-mechanism.js';
import { ClassBuilder } from '../../../common/recoding/search/class-table.js';
import { attributeOf, comparesWithInput, engineModel, modelText, subsetMembership, type GlobalRecodingSpec } from '../definition.js';
import { wildcardFrequencies, WILDCARD } from '../local-suppression.js';
import { classMeets, histogramCodes, modelContext, type PrivacyModel } from '../../../common/recoding/search/models.js';
import { quasiColumn, sensitiveColumn } from '../../../common/recoding/search/recoding-input.js';

/**
 * Every model re-checked on the released file alone: classes are the released records that share
 * their (generalized) quasi-identifiers. t-closeness, β-likeness and δ-disclosure privacy compare with
 * the input's distribution, suppressed records included, which the release does not hold: they are
 * re-checked only when the internal report is at hand and says nothing was suppressed (then the
 * released distribution is the input's), with the run's exact class decisions.
 *
 * With local suppression, "*" in a quasi-identifier is a wildcard: each record's frequency is the
 * released records compatible with it, and k-anonymity and the risk thresholds are checked on those
 * frequencies (they are what the run enforced; the record's risk is 1 / its frequency).
 */
export function verifyGlobalRecoding(ctx: VerifyContext, spec: GlobalRecodingSpec): void {
  const { checks, report } = ctx;
  const { release, roles } = releasedRecords(ctx);
  const quasi = release.columns.filter((c) => roles.get(c.name) === 'quasi');
  const sensitiveNames = report.input.columns.filter((c) => c.role === 'sensitive').map((c) => c.name);
  const sensitiveName = sensitiveNames[0];
  // Every sensitive column the release holds, each a part of the class histograms (a model names its own: attribute).
  const sensitiveReleased = sensitiveNames.flatMap((name) => release.columns.filter((c) => c.name === name));
  // Every released value at level 0 of a hierarchy of one level: the classes of the release as it stands.
  const columns = quasi.map((c) => quasiColumn(makeColumn(c.name, c.codes, c.dictionary), undefined));
  const sensitiveColumns = sensitiveReleased.map((c) => sensitiveColumn(c));
  const table = new ClassBuilder(columns, histogramCodes(sensitiveColumns), release.rowCount).fromRecords(columns.map(() => 0));
  const context = modelContext(sensitiveColumns, release.rowCount);
  const nothingSuppressed = ctx.internal?.output?.suppressed === 0;
  let frequencies: Uint32Array | undefined;
  if (spec.localSuppression) {
    const k = spec.localSuppression.k;
    const codes = quasi.map((c) => {
      const star = c.dictionary.indexOf('*');
      return star < 0 ? c.codes : Uint32Array.from(c.codes, (code) => (code === star ? WILDCARD : code));
    });
    frequencies = wildcardFrequencies(codes, release.rowCount);
    let below = 0;
    for (const f of frequencies) if (f < k) below++;
    checks.add(`${k}-anonymity with wildcards (local suppression)`, below === 0, below === 0 ? `every one of ${release.rowCount} released records is compatible with at least ${k} ("*" matching any value)` : `${below} released record(s) are compatible with fewer than ${k}`);
  }
  // A journalist threshold is held on its bound 1 / |class|, which the release alone shows: no population needed.
  spec.models.forEach((spec) => {
    const name = modelText(spec, sensitiveName);
    if (spec.type === 'delta-presence') {
      checkPresence(checks, name, spec.subset, release);
      return;
    }
    const attribute = attributeOf(spec) ?? sensitiveName;
    const index = sensitiveReleased.findIndex((c) => c.name === attribute);
    const model: PrivacyModel = engineModel(spec, index > 0 ? index : undefined);
    if (comparesWithInput(spec) && !nothingSuppressed) {
      checks.add(`${name} (not re-checked)`, true, `${model.type === 't-closeness' ? 'the distance is' : 'the model compares each class'} to the distribution of every input record, suppressed ones included, which the release alone does not hold; re-checked when the internal report shows nothing was suppressed`);
      return;
    }
    if ((model.type !== 'k-anonymity' && model.type !== 'maximum-risk' && model.type !== 'average-risk') && index < 0) {
      checks.add(name, false, `the release has no sensitive column ${attribute ?? ''}`);
      return;
    }
    if (frequencies && (model.type === 'k-anonymity' || model.type === 'maximum-risk' || model.type === 'average-risk')) {
      checkOnFrequencies(checks, name, model, frequencies);
      return;
    }
    if (model.type === 'average-risk') {
      const average = release.rowCount === 0 ? 0 : table.count / release.rowCount;
      checks.add(name, average <= model.risk, `${table.count} classes over ${release.rowCount} released records: average risk ${average.toFixed(6)}`);
      return;
    }
    let failing = 0;
    for (let c = 0; c < table.count; c++) if (!classMeets(model, table, c, context)) failing++;
    checks.add(name, failing === 0, failing === 0 ? `all ${table.count} released classes meet it` : `${failing} of ${table.count} released classes do not meet it`);
  });
}

/**
 * δ-presence: each class's share is of the input's records (the population), which the release does
 * not hold, so the bounds are taken on trust (the run checked them on the input). What the release
 * shows is checked: when the subset's column is released, every released record is in the subset.
 */
function checkPresence(checks: VerifyContext['checks'], name: string, subsetColumn: string, release: ReturnType<typeof releasedRecords>['release']): void {
  checks.add(`${name} (not re-checked: taken on trust)`, true, 'each released class\'s share of the subset is of all the input\'s records with its generalized quasi-identifiers (the population), which the release does not hold; the run checked it on the input');
  const column = release.columns.find((c) => c.name === subsetColumn);
  if (!column) return;
  let outside = 0;
  for (const code of column.codes) if (subsetMembership(column.dictionary[code] ?? '') !== true) outside++;
  checks.add(`only the research subset released (${subsetColumn})`, outside === 0, outside === 0 ? `every one of ${release.rowCount} released records is marked as in the subset` : `${outside} released record(s) are not marked as in the research subset`);
}

/** k-anonymity and the risk thresholds on wildcard frequencies: a record's risk is 1 / its frequency. */
function checkOnFrequencies(checks: VerifyContext['checks'], name: string, model: Extract<PrivacyModel, { type: 'k-anonymity' | 'maximum-risk' | 'average-risk' }>, frequencies: Uint32Array): void {
  const n = frequencies.length;
  if (model.type === 'average-risk') {
    let sum = 0;
    for (const f of frequencies) sum += 1 / f;
    const average = n === 0 ? 0 : sum / n;
    checks.add(name, average <= model.risk, `mean over ${n} released records of 1 / (records compatible with it): risk ${average.toFixed(6)}`);
    return;
  }
  let failing = 0;
  for (const f of frequencies) if (model.type === 'k-anonymity' ? f < model.k : 1 / f > model.risk) failing++;
  checks.add(name, failing === 0, failing === 0 ? `all ${n} released records are compatible with enough records` : `${failing} of ${n} released records are compatible with too few records`);
}
