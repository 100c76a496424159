import { RecodingSearchFields } from '../../../renderer/components/recoding-search-fields.js';
import type { BrowserMechanism, FormProps, Problems } from '../../../renderer/components/browser-mechanism.js';
import { Callout, CheckField, NumberField, SelectField } from '../../../renderer/components/fields.js';
import { partitionedRecoding, type PartitionedRecodingSpec } from '../definition.js';

export interface PartitionedRecodingDraft {
  readonly parts: number;
  readonly model: 'k-anonymity' | 'l-diversity' | 't-closeness';
  readonly k: number;
  readonly l: number;
  readonly t: number;
  /** Levels chosen by the optimal search (as global recoding's), with its suppression limit and measure. */
  readonly search: boolean;
  readonly suppressionPercent: number;
  readonly measure: PartitionedRecodingSpec['measure'];
}

/** The parameters of the models not chosen, offered when the person switches model. */
const START_MODELS = { k: 5, l: 2, t: 0.2 };

function Form({ draft, set, problems, recodingTable }: FormProps<PartitionedRecodingDraft>) {
  return (
    <>
      <p className="lead">Choose the privacy model and the number of random parts, then how coarsely each column is released.</p>
      {problems['roles'] && <Callout tone="error">{problems['roles']}</Callout>}
      <fieldset className="options">
        <legend>Model and parts</legend>
        <SelectField
          label="Privacy model"
          value={draft.model}
          options={[
            { value: 'k-anonymity', label: 'k-anonymity' },
            { value: 'l-diversity', label: 'ℓ-diversity (distinct)' },
            { value: 't-closeness', label: 't-closeness' },
          ]}
          onChange={(model) => set({ model })}
        />
        {draft.model === 'k-anonymity' && <NumberField label="k" direction={{ stricter: 'larger' }} min={2} max={1000} step={1} value={draft.k} onChange={(k) => set({ k })} error={problems['k']} help="Every class of records sharing their quasi-identifiers has at least k records." />}
        {draft.model === 'l-diversity' && <NumberField label="ℓ" direction={{ stricter: 'larger' }} min={2} max={100} step={1} value={draft.l} onChange={(l) => set({ l })} error={problems['l']} help="Every class holds at least ℓ different sensitive values." />}
        {draft.model === 't-closeness' && <NumberField label="t" direction={{ stricter: 'smaller' }} min={0.01} max={1} step={0.01} value={draft.t} onChange={(t) => set({ t })} error={problems['t']} help="Every class's sensitive distribution is within t of the whole part's." />}
        <NumberField label="Parts" direction={{ neither: 'Neither: each part is anonymized to the same model; more parts are smaller.' }} min={1} max={100} step={1} value={draft.parts} onChange={(parts) => set({ parts })} error={problems['parts']} help="Random disjoint parts whose sizes differ by at most one, each anonymized on its own with the same generalization." />
      </fieldset>
      <fieldset className="options">
        <legend>Levels</legend>
        <CheckField
          label="Find the best levels for me (optimal recoding shared by every part)"
          checked={draft.search}
          onChange={(search) => set({ search })}
          help="Searches every combination of the hierarchies' levels for the least information loss whose failing classes, in all parts together, stay within the suppression limit. Syntactic: the choice looks at this data."
        />
        {draft.search && (
          <RecodingSearchFields suppressionPercent={draft.suppressionPercent} measure={draft.measure} onChange={set} error={problems['suppressionLimit']} limitHelp="The largest share of all records that may be deleted with their failing class." />
        )}
      </fieldset>
      {recodingTable}
    </>
  );
}

export const partitionedRecodingBrowser: BrowserMechanism<PartitionedRecodingSpec, PartitionedRecodingDraft> = {
  definition: partitionedRecoding,
  sensitive: partitionedRecoding.metadata.sensitiveColumns,
  recodes: true,
  tableLevels: (m) => m.levels,
  latticeChoice: null,
  levelsSearched: (d) => d.search,
  formProblems: (d): Problems => (!d.search || (Number.isFinite(d.suppressionPercent) && d.suppressionPercent >= 0 && d.suppressionPercent <= 100) ? {} : { suppressionLimit: 'the suppression limit is a percentage from 0 to 100' }),
  fromMethod: (m) => ({
    parts: m.parts,
    model: m.model.type,
    k: m.model.type === 'k-anonymity' ? m.model.k : START_MODELS.k,
    l: m.model.type === 'l-diversity' ? m.model.l : START_MODELS.l,
    t: m.model.type === 't-closeness' ? m.model.t : START_MODELS.t,
    search: m.levels === 'search',
    suppressionPercent: Number((m.suppressionLimit * 100).toFixed(6)),
    measure: m.measure,
  }),
  toMethod: (d, { recoding }) => ({
    type: 'partitioned-recoding',
    parts: d.parts,
    model: d.model === 'k-anonymity' ? { type: d.model, k: d.k } : d.model === 'l-diversity' ? { type: d.model, l: d.l } : { type: d.model, t: d.t },
    hierarchies: recoding.hierarchies,
    levels: d.search ? 'search' : recoding.levels,
    ...(d.search ? { suppressionLimit: d.suppressionPercent / 100, measure: d.measure } : {}),
  }),
  fieldOf: (path) => (path[0] === 'model' ? String(path[1] ?? 'model') : path[0] === 'levels' && path.length > 1 ? `hierarchy.${String(path[1])}` : String(path[0] ?? '')),
  dataProblems(d, context): Problems {
    return d.model !== 'k-anonymity' && context.sensitive.length !== 1 ? { roles: `${d.model} needs exactly one sensitive column` } : {};
  },
  Form,
};
