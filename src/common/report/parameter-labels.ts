/**
 * The words a report shows for a method's parameter keys. The keys stay in the
 * JSON (they are the job file's and the schema's); a reader of the HTML, PDF
 * or workbook sees what they mean. A key that is not listed is spelt out from
 * its camel case, so a new parameter never shows as a bare identifier.
 */
const LABELS: ReadonlyMap<string, string> = new Map([
  ['aggregatedClasses', 'aggregated classes'],
  ['aggregation', 'aggregation'],
  ['algorithm', 'bucketing algorithm'],
  ['betaDefault', 'default β'],
  ['bound', 'bound'],
  ['coefficient', 'privacy coefficient c'],
  ['correlation', 'correlation of the noise'],
  ['delta', 'δ'],
  ['diagonal', 'probability a value is kept as it is'],
  ['distinctAnswers', 'distinct answers'],
  ['epsilon', 'ε'],
  ['epsilonAnonymization', 'ε of the anonymization'],
  ['epsilonEffective', 'effective ε (ε_eff)'],
  ['epsilonPerAnswer', 'ε per answer'],
  ['epsilonSelection', 'ε of the selection (ε_sel)'],
  ['fakeValues', 'fake values per bucket'],
  ['gamma', 'γ'],
  ['gammaP', 'amplification γ'],
  ['groupSizes', 'group sizes'],
  ['informationLoss', 'information loss'],
  ['l', 'ℓ of the Anatomy baseline'],
  ['latticeNodes', 'transformations in the lattice'],
  ['localSuppression', 'local suppression'],
  ['lossFunction', 'loss function'],
  ['m', 'm (values of the sensitive column)'],
  ['maxBucket', 'largest bucket'],
  ['minBucket', 'smallest bucket'],
  ['minimumEpsilon', 'smallest ε'],
  ['model', 'privacy model'],
  ['models', 'privacy models'],
  ['offDiagonal', 'probability of each other value'],
  ['records', 'records'],
  ['recordsWithSuppressedCells', 'records with suppressed cells'],
  ['retention', 'retention probability p'],
  ['rho1', 'ρ1'],
  ['rho2', 'ρ2'],
  ['riskBound', 'bound of the risk test'],
  ['riskDelta', 'δ of the risk test'],
  ['riskEpsilon', 'ε of the risk test'],
  ['sampling', 'sampling probability β'],
  ['samplingExact', 'sampling probability β (exact)'],
  ['scale', 'noise scale b'],
  ['searchLossWeight', 'loss weight λ of the search'],
  ['searchStrategy', 'search strategy'],
  ['sensitive', 'sensitive column'],
  ['sizeThresholdRange', 'size threshold range'],
  ['sMin', 'smallest bucket size β allows'],
  ['smallestAggregatedClass', 'smallest aggregated class'],
  ['strict', 'strict (ε,δ) test'],
  ['suppressedCells', 'suppressed cells'],
  ['suppressionLimit', 'suppression limit'],
  ['targetDelta', 'target δ'],
  ['targetEpsilon', 'target ε'],
  ['unprotectable', 'groups no retention protects'],
]);

const GREEK: Readonly<Record<string, string>> = { epsilon: 'ε', delta: 'δ', beta: 'β', gamma: 'γ', lambda: 'λ', rho: 'ρ' };

function spelt(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .map((word) => GREEK[word] ?? word)
    .join(' ');
}

/** "occupation.m" → "m (values of the sensitive column) of “occupation”": keys made per column carry its name before the last dot. */
export function parameterLabel(key: string): string {
  const dot = key.lastIndexOf('.');
  if (dot > 0) return `${parameterLabel(key.slice(dot + 1))} of “${key.slice(0, dot)}”`;
  const label = LABELS.get(key) ?? spelt(key);
  // A word starts with a capital; a symbol (ε, m, k) keeps its case.
  return /^[a-z]{2,}/.test(label) ? label.charAt(0).toUpperCase() + label.slice(1) : label;
}

/** A parameter's value as a reader reads it: yes/no for flags. */
export function parameterValue(value: unknown): string {
  if (value === true) return 'yes';
  if (value === false) return 'no';
  return String(value);
}
