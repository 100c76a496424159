import { own } from '../../../common/job/names.js';
import type { ColumnInfo } from '../../../common/ipc/api.js';
import type { BrowserMechanism, FormProps, Problems, WizardContext } from '../../../renderer/components/browser-mechanism.js';
import { Callout, CheckField, NumberField, SelectField } from '../../../renderer/components/fields.js';
import { formatNumber } from '../../../common/format/numbers.js';
import { microaggregation, type MicroaggregationSpec } from '../definition.js';

export interface MicroaggregationDraft {
  readonly columns: readonly string[];
  readonly k: number;
  readonly aggregation: 'mean' | 'median';
  readonly decimals: number;
}

/** Columns MDAV can take: numbers throughout (the run refuses a missing value, so those are flagged). */
function numericColumns(context: Pick<WizardContext, 'file' | 'roles'>): readonly ColumnInfo[] {
  return context.file.columns.filter((c) => (c.type === 'integer' || c.type === 'decimal') && own(context.roles, c.name) !== 'identifier');
}

function Form({ draft, set, context, problems }: FormProps<MicroaggregationDraft>) {
  const numeric = numericColumns(context);
  const quasiLeft = context.file.columns.filter((c) => own(context.roles, c.name) !== 'identifier' && own(context.roles, c.name) !== 'insensitive' && own(context.roles, c.name) !== 'sensitive' && !draft.columns.includes(c.name));
  return (
    <>
      <p className="lead">Choose the numeric columns to aggregate together and the least group size k. Each value of those columns is replaced by its group's mean.</p>
      <fieldset className="options">
        <legend>Numeric columns to aggregate</legend>
        {numeric.length === 0 && <p className="help">The file has no numeric column (every value a number) to aggregate.</p>}
        {numeric.map((c) => (
          <CheckField
            key={c.name}
            label={`${c.name} (${formatNumber(c.distinct)} values${c.missing > 0 ? `, ${formatNumber(c.missing)} missing` : ''})`}
            checked={draft.columns.includes(c.name)}
            onChange={(on) => set({ columns: on ? [...draft.columns, c.name] : draft.columns.filter((x) => x !== c.name) })}
          />
        ))}
        {problems['columns'] && <p className="error-text">{problems['columns']}</p>}
      </fieldset>
      <fieldset className="options">
        <legend>Groups</legend>
        <NumberField label="k (least group size)" direction={{ stricter: 'larger' }} min={2} max={1000} step={1} value={draft.k} onChange={(k) => set({ k })} error={problems['k']} help="MDAV forms groups of k records (the last has k to 2k − 1); every released combination of the aggregated columns is shared by at least k records." />
        <SelectField
          label="Released value of a group"
          value={draft.aggregation}
          options={[
            { value: 'mean', label: 'mean (as sdcMicro)' },
            { value: 'median', label: 'median' },
          ]}
          onChange={(aggregation) => set({ aggregation })}
        />
        <NumberField label="Decimal places" direction={{ neither: 'Neither: the guarantee comes from k; decimals only round the averages.' }} min={0} max={10} step={1} value={draft.decimals} onChange={(decimals) => set({ decimals })} error={problems['decimals']} help="The released value is rounded half away from zero to this many places." />
      </fieldset>
      {draft.columns.length > 0 && quasiLeft.length > 0 && (
        <Callout tone="warn">
          {quasiLeft.map((c) => c.name).join(', ')} {quasiLeft.length === 1 ? 'is a quasi-identifier' : 'are quasi-identifiers'} released unchanged: the release is k-anonymous on the aggregated columns only. There is no differential-privacy guarantee.
        </Callout>
      )}
    </>
  );
}

export const microaggregationBrowser: BrowserMechanism<MicroaggregationSpec, MicroaggregationDraft> = {
  definition: microaggregation,
  sensitive: microaggregation.metadata.sensitiveColumns,
  recodes: false,
  tableLevels: null,
  latticeChoice: null,
  fromMethod: (m) => ({ columns: [...m.columns], k: m.k, aggregation: m.aggregation, decimals: m.decimals }),
  toMethod: (d) => ({ type: 'microaggregation', columns: [...d.columns], k: d.k, aggregation: d.aggregation, decimals: d.decimals }),
  fieldOf: (path) => String(path[0] ?? ''),
  dataProblems(d, context): Problems {
    const numeric = numericColumns(context);
    const problems: Record<string, string> = {};
    const notNumeric = d.columns.filter((name) => !numeric.some((c) => c.name === name));
    const withMissing = numeric.filter((c) => d.columns.includes(c.name) && c.missing > 0);
    if (notNumeric.length > 0) problems['columns'] = `not a numeric column of this file: ${notNumeric.join(', ')}`;
    else if (withMissing.length > 0) problems['columns'] = `${withMissing.map((c) => c.name).join(', ')} ${withMissing.length === 1 ? 'has' : 'have'} missing values: MDAV needs a number in every record`;
    else if (context.file.rows < d.k) problems['k'] = `the file has fewer than k = ${d.k} records`;
    return problems;
  },
  Form,
};
