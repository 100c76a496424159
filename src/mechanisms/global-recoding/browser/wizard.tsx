import { RecodingSearchFields } from '../../../renderer/components/recoding-search-fields.js';
import type { BrowserMechanism, FormProps, Problems } from '../../../renderer/components/browser-mechanism.js';
import { Callout, CheckField, NumberField, SelectField } from '../../../renderer/components/fields.js';
import { named, own, type Named } from '../../../common/job/names.js';
import type { Role } from '../../../common/job/job-parts.js';
import type { HierarchySpec } from '../../../common/recoding/hierarchy-spec.js';
import { levelBoundsText } from '../level-bounds.js';
import { attributeOf, globalRecoding, needsSensitiveColumn, type GlobalRecodingSpec, type ModelSpec } from '../definition.js';

export interface GlobalRecodingDraft {
  /** 'none': local suppression alone (the columns stay as collected). */
  readonly model: 'k-anonymity' | 'l-diversity' | 't-closeness' | 'maximum-risk' | 'average-risk' | 'delta-presence' | 'none';
  readonly k: number;
  readonly l: number;
  readonly variant: 'distinct' | 'entropy' | 'recursive';
  readonly c: number;
  readonly t: number;
  readonly distance: 'equal' | 'ordered' | 'hierarchical';
  readonly risk: number;
  /** ℓ-diversity and t-closeness: the sensitive column the model applies to (several sensitive columns); undefined: the one. */
  readonly attribute?: string;
  /** δ-presence: the bounds of a class's share in the research subset, and the column that marks the subset. */
  readonly deltaMin: number;
  readonly deltaMax: number;
  readonly subset: string;
  /** Risk thresholds: who attacks; a journalist needs the population the data were sampled from. */
  readonly attacker: 'prosecutor' | 'journalist';
  readonly populationKind: 'size' | 'fraction';
  readonly populationSize: number;
  readonly samplingFraction: number;
  /** Local suppression (sdcMicro's kAnon) after the recoding. */
  readonly localSuppression: boolean;
  readonly lsK: number;
  /** Importance weights of the quasi-identifiers (unnamed: 1); names are data, so a list. */
  readonly lsImportance: readonly { readonly column: string; readonly weight: number }[];
  /** Percent of the records. */
  readonly suppressionPercent: number;
  readonly measure: GlobalRecodingSpec['measure'];
  /** k-anonymity beside an ℓ-diversity, t-closeness or risk model (ARX's usual pairing). */
  readonly alsoK: boolean;
  /** Models of an opened job beyond the first, kept as written (the form edits one, and k beside it). */
  readonly otherModels: readonly ModelSpec[];
  /** The Loss's gsFactor and attribute weights (each field sets its own); sent with the Loss only. */
  readonly lossSettings?: Pick<GlobalRecodingSpec, 'gsFactor' | 'attributeWeights'>;
  /** The job's method.levels: columns pinned to a level or bounded, from the Risk step's solution space. */
  readonly levels: Named<LevelEntry>;
}

/** One column's entry of method.levels. */
export type LevelEntry = NonNullable<GlobalRecodingSpec['levels']>[string];

/** The parameters of the models not chosen, offered when the person switches model. */
const START = { k: 5, l: 2, variant: 'distinct', c: 3, t: 0.2, distance: 'equal', risk: 0.2, populationSize: 100_000, samplingFraction: 0.1, lsK: 5, deltaMin: 0, deltaMax: 0.5 } as const;

/** ARX's default weight of a quasi-identifier in the Loss, and its default generalization/suppression factor. */
const DEFAULT_WEIGHT = 0.5;
const DEFAULT_GS_FACTOR = 0.5;

const isRisk = (model: GlobalRecodingDraft['model']): model is 'maximum-risk' | 'average-risk' => model === 'maximum-risk' || model === 'average-risk';

function Form({ draft, set, problems, recodingTable, context }: FormProps<GlobalRecodingDraft>) {
  const quasi = context.file.columns.filter((c) => (own(context.roles, c.name) ?? 'quasi') === 'quasi').map((c) => c.name);
  const weightOf = (column: string) => draft.lsImportance.find((e) => e.column === column)?.weight ?? 1;
  const setWeight = (column: string, weight: number) => set({ lsImportance: [...draft.lsImportance.filter((e) => e.column !== column), { column, weight }] });
  const lossWeights = draft.lossSettings?.attributeWeights ?? [];
  const lossWeightOf = (column: string) => lossWeights.find((e) => e.column === column)?.weight ?? DEFAULT_WEIGHT;
  const setLossWeight = (column: string, weight: number) => set({ lossSettings: { ...draft.lossSettings, attributeWeights: [...lossWeights.filter((e) => e.column !== column), { column, weight }] } });
  const sensitive = context.sensitive.map((c) => c.name);
  // The research subset's column: one the job neither generalizes nor publishes as a model's value.
  const subsetColumns = context.file.columns.filter((c) => { const role = own(context.roles, c.name) ?? 'quasi'; return role === 'insensitive' || role === 'identifier'; }).map((c) => c.name);
  return (
    <>
      <p className="lead">Choose the privacy model, how many records may be deleted and what counts as loss; Custos finds the least destructive combination of hierarchy levels. The models are syntactic: no differential-privacy guarantee.</p>
      {problems['roles'] && <Callout tone="error">{problems['roles']}</Callout>}
      {problems['model'] && <Callout tone="error">{problems['model']}</Callout>}
      <fieldset className="options">
        <legend>Model</legend>
        <SelectField
          label="Privacy model"
          value={draft.model}
          options={[
            { value: 'k-anonymity', label: 'k-anonymity' },
            { value: 'l-diversity', label: 'ℓ-diversity' },
            { value: 't-closeness', label: 't-closeness' },
            { value: 'maximum-risk', label: 'highest prosecutor risk' },
            { value: 'average-risk', label: 'average re-identification risk' },
            { value: 'delta-presence', label: 'δ-presence (a research subset of the file)' },
            ...(draft.localSuppression ? [{ value: 'none' as const, label: 'none: local suppression alone' }] : []),
          ]}
          onChange={(model) => set({ model })}
        />
        {draft.model !== 'k-anonymity' && draft.model !== 'none' && <CheckField label="and k-anonymity" checked={draft.alsoK} onChange={(alsoK) => set({ alsoK })} help="Both models must hold, as ARX combines them." />}
        {(draft.model === 'k-anonymity' || (draft.alsoK && draft.model !== 'none')) && <NumberField label="k" direction={{ stricter: 'larger' }} min={2} max={1000} step={1} value={draft.k} onChange={(k) => set({ k })} error={problems['k']} help="Every released class of records sharing their quasi-identifiers has at least k records." />}
        {draft.model === 'l-diversity' && (
          <>
            <NumberField label="ℓ" direction={{ stricter: 'larger' }} min={2} max={100} step={1} value={draft.l} onChange={(l) => set({ l })} error={problems['l']} help="Every released class holds at least ℓ well-represented sensitive values." />
            <SelectField label="Variant" value={draft.variant} options={[{ value: 'distinct', label: 'distinct' }, { value: 'entropy', label: 'entropy' }, { value: 'recursive', label: 'recursive (c,ℓ)' }]} onChange={(variant) => set({ variant })} />
            {draft.variant === 'recursive' && <NumberField label="c" direction={{ stricter: 'smaller' }} min={0.01} max={100} step={0.1} value={draft.c} onChange={(c) => set({ c })} error={problems['c']} help="The most frequent value is rarer than c times the ℓ-th and rarer ones together." />}
          </>
        )}
        {(draft.model === 'l-diversity' || draft.model === 't-closeness') && sensitive.length > 1 && (
          <>
          {problems['attribute'] && <Callout tone="error">{problems['attribute']}</Callout>}
          <SelectField label="Sensitive column" value={draft.attribute ?? ''} options={[{ value: '', label: 'choose one' }, ...sensitive.map((name) => ({ value: name, label: name }))]} onChange={(attribute) => set({ attribute: attribute === '' ? undefined : attribute })} help="Several columns are marked sensitive: the model applies to this one (add models for the others in the job file)." />
          </>
        )}
        {draft.model === 'delta-presence' && (
          <>
            {problems['subset'] && <Callout tone="error">{problems['subset']}</Callout>}
            <SelectField label="Research subset column" value={draft.subset} options={[{ value: '', label: subsetColumns.length > 0 ? 'choose one' : 'none: mark a column "insensitive" or "identifier"' }, ...subsetColumns.map((name) => ({ value: name, label: name }))]} onChange={(subset) => set({ subset })} help="The column that says which records are in the research subset: 1, true or yes (in it), 0, false or no (not). Only the subset's records are released; the whole file is the population." />
            <NumberField label="δmin" direction={{ stricter: 'larger' }} min={0} max={1} step={0.01} value={draft.deltaMin} onChange={(deltaMin) => set({ deltaMin })} error={problems['deltaMin']} help="Every released class holds at least this share of the file's records with its quasi-identifiers in the subset." />
            <NumberField label="δmax" direction={{ stricter: 'smaller' }} min={0} max={1} step={0.01} value={draft.deltaMax} onChange={(deltaMax) => set({ deltaMax })} error={problems['deltaMax']} help="…and at most this share: a person of the file is in the release with a chance no higher." />
          </>
        )}
        {draft.model === 't-closeness' && (
          <>
            <NumberField label="t" direction={{ stricter: 'smaller' }} min={0.01} max={1} step={0.01} value={draft.t} onChange={(t) => set({ t })} error={problems['t']} help="Every released class's sensitive distribution is within t of the whole table's (earth mover's distance)." />
            <SelectField label="Distance" value={draft.distance} options={[{ value: 'equal', label: 'equal (categories)' }, { value: 'ordered', label: 'ordered (numbers)' }, { value: 'hierarchical', label: 'hierarchical (the sensitive column\'s hierarchy)' }]} onChange={(distance) => set({ distance })} />
          </>
        )}
        {isRisk(draft.model) && (
          <>
            <NumberField label="Risk" direction={{ stricter: 'smaller' }} min={0.001} max={1} step={0.01} value={draft.risk} onChange={(risk) => set({ risk })} error={problems['risk']} help={draft.attacker === 'journalist' ? 'Journalist re-identification risk, held on its upper bound 1 / class size (the population gives estimates only).' : 'Prosecutor re-identification risk, 1 / class size.'} />
            <SelectField
              label="Attacker"
              value={draft.attacker}
              options={[
                { value: 'prosecutor', label: 'prosecutor (knows the person is in the data)' },
                { value: 'journalist', label: 'journalist (knows only the population the data were sampled from)' },
              ]}
              onChange={(attacker) => set({ attacker })}
            />
            {draft.attacker === 'journalist' && (
              <>
                <SelectField label="Population given as" value={draft.populationKind} options={[{ value: 'size', label: 'its size' }, { value: 'fraction', label: 'the sampling fraction' }]} onChange={(populationKind) => set({ populationKind })} />
                {draft.populationKind === 'size' ? (
                  <NumberField label="Population size" direction={{ neither: 'Neither: a fact about where the data come from, not a setting.' }} min={1} max={1e10} step={1} value={draft.populationSize} onChange={(populationSize) => set({ populationSize })} error={problems['populationSize']} help="People the data were sampled from (at least the records in the file)." />
                ) : (
                  <NumberField label="Sampling fraction" direction={{ neither: 'Neither: a fact about where the data come from, not a setting.' }} min={0.000001} max={1} step={0.01} value={draft.samplingFraction} onChange={(samplingFraction) => set({ samplingFraction })} error={problems['samplingFraction']} help="The share of the population that is in the file." />
                )}
              </>
            )}
          </>
        )}
      </fieldset>
      <fieldset className="options">
        <legend>Local suppression</legend>
        <CheckField
          label="Suppress single cells after the recoding (sdcMicro kAnon)"
          checked={draft.localSuppression}
          onChange={(localSuppression) => set({ localSuppression, ...(!localSuppression && draft.model === 'none' ? { model: 'k-anonymity' as const } : {}) })}
          help={'Cells of the quasi-identifiers are released as "*" (matching any value) until every record is compatible with at least k records; records are kept instead of deleted. Weaker than k-anonymity of identical records.'}
        />
        {draft.localSuppression && (
          <>
            <NumberField label="k of local suppression" direction={{ stricter: 'larger' }} min={2} max={1000} step={1} value={draft.lsK} onChange={(lsK) => set({ lsK })} error={problems['localSuppression.k']} help="Every released record is compatible with at least this many records." />
            {problems['localSuppression.importance'] && <Callout tone="error">{problems['localSuppression.importance']}</Callout>}
            {quasi.map((column) => (
              <NumberField key={column} label={`Importance of ${column}`} direction={{ neither: 'Neither: which column loses cells first, not how many.' }} min={0.1} max={100} step={1} value={weightOf(column)} onChange={(weight) => setWeight(column, weight)} help="Higher: suppressed later (sdcMicro's importance)." />
            ))}
          </>
        )}
      </fieldset>
      <fieldset className="options">
        <legend>Search</legend>
        {Object.keys(draft.levels).length > 0 && (
          <p>
            Levels kept: {levelBoundsText(draft.levels)}.{' '}
            <button type="button" onClick={() => set({ levels: named() })}>
              Free all levels
            </button>
          </p>
        )}
        <RecodingSearchFields suppressionPercent={draft.suppressionPercent} measure={draft.measure} onChange={set} error={problems['suppressionLimit']} limitHelp="The largest share of records that may be deleted with their class." />
        {draft.measure === 'loss' && (
          <>
            <NumberField
              label="Generalization/suppression factor"
              direction={{ neither: 'Neither: larger prefers generalizing values to deleting records, smaller deleting records to generalizing.' }}
              min={0}
              max={1}
              step={0.05}
              value={draft.lossSettings?.gsFactor ?? DEFAULT_GS_FACTOR}
              onChange={(gsFactor) => set({ lossSettings: { ...draft.lossSettings, gsFactor } })}
              error={problems['gsFactor']}
              help="ARX's factor of the Loss: 0.5 weighs a deleted record as a fully generalized one."
            />
            {problems['attributeWeights'] && <Callout tone="error">{problems['attributeWeights']}</Callout>}
            {quasi.map((column) => (
              <NumberField key={column} label={`Weight of ${column} in the Loss`} direction={{ neither: 'Neither: larger keeps this column more detailed (its loss counts more), others coarser.' }} min={0} max={1} step={0.1} value={lossWeightOf(column)} onChange={(weight) => setLossWeight(column, weight)} help="ARX's attribute weight (0.5 unless set; all divided by the largest)." />
            ))}
          </>
        )}
      </fieldset>
      {recodingTable}
    </>
  );
}

/** The roles whose columns are generalized: the quasi-identifiers, and the sensitive column when t-closeness measures distance along its hierarchy. */
function recodedRoles(d: GlobalRecodingDraft): readonly Role[] {
  const hierarchical = (d.model === 't-closeness' && d.distance === 'hierarchical') || d.otherModels.some((m) => m.type === 't-closeness' && m.distance === 'hierarchical');
  return hierarchical ? ['quasi', 'sensitive'] : ['quasi'];
}

/** The hierarchies of the recoded columns only: a hierarchy left on a column that is no longer recoded is not kept hidden in the job. */
function recodedHierarchies(d: GlobalRecodingDraft, hierarchies: Named<HierarchySpec>, roles: Named<Role> | undefined): Named<HierarchySpec> {
  if (!roles) return hierarchies;
  const kept = recodedRoles(d);
  return named(Object.entries(hierarchies).filter(([column]) => kept.includes(own(roles, column) ?? 'quasi')));
}

function riskOf(d: GlobalRecodingDraft, type: 'maximum-risk' | 'average-risk'): ModelSpec {
  if (d.attacker !== 'journalist') return { type, risk: d.risk };
  return d.populationKind === 'size' ? { type, risk: d.risk, attacker: 'journalist', populationSize: d.populationSize } : { type, risk: d.risk, attacker: 'journalist', samplingFraction: d.samplingFraction };
}

/** The model the form edits; none when local suppression works alone. */
function modelOf(d: GlobalRecodingDraft): ModelSpec[] {
  switch (d.model) {
    case 'none':
      return [];
    case 'k-anonymity':
      return [{ type: d.model, k: d.k }];
    case 'l-diversity':
      return [d.variant === 'recursive' ? { type: d.model, l: d.l, variant: d.variant, c: d.c, ...on(d) } : { type: d.model, l: d.l, variant: d.variant, ...on(d) }];
    case 't-closeness':
      return [{ type: d.model, t: d.t, distance: d.distance, ...on(d) }];
    case 'maximum-risk':
    case 'average-risk':
      return [riskOf(d, d.model)];
    case 'delta-presence':
      return [{ type: d.model, deltaMin: d.deltaMin, deltaMax: d.deltaMax, subset: d.subset }];
  }
}

/** The form's sensitive column for its model, when one is chosen. */
const on = (d: GlobalRecodingDraft): { attribute?: string } => (d.attribute !== undefined ? { attribute: d.attribute } : {});

export const globalRecodingBrowser: BrowserMechanism<GlobalRecodingSpec, GlobalRecodingDraft> = {
  definition: globalRecoding,
  sensitive: globalRecoding.metadata.sensitiveColumns,
  recodes: true,
  // Its method.levels are bounds of its own search, kept in its form: the table fixes no level.
  tableLevels: () => 'search',
  latticeChoice: { suppressionLimit: (limit) => ({ suppressionPercent: Number((limit * 100).toFixed(6)) }), levels: (levels) => ({ levels }) },
  levelsSearched: () => true,
  recodedRoles,
  fromMethod: (m) => {
    // β-likeness and δ-disclosure have no field in the form yet: a job that leads with one keeps its models as written.
    const formed = m.models[0]?.type !== 'beta-likeness' && m.models[0]?.type !== 'delta-disclosure';
    type FormModel = Exclude<ModelSpec, { type: 'beta-likeness' | 'delta-disclosure' }>;
    const first = formed ? (m.models[0] as FormModel | undefined) : undefined;
    const rest = formed ? m.models.slice(1) : m.models;
    // k-anonymity right after another model is the form's "and k-anonymity"; anything else is kept as written.
    const pairedK = first && first.type !== 'k-anonymity' && rest.length === 1 && rest[0]!.type === 'k-anonymity' ? rest[0] : undefined;
    const otherModels = pairedK ? [] : rest;
    const riskModel = first?.type === 'maximum-risk' || first?.type === 'average-risk' ? first : undefined;
    return {
      model: first?.type ?? 'none',
      k: first?.type === 'k-anonymity' ? first.k : pairedK?.type === 'k-anonymity' ? pairedK.k : START.k,
      alsoK: pairedK !== undefined,
      l: first?.type === 'l-diversity' ? first.l : START.l,
      variant: first?.type === 'l-diversity' ? first.variant : START.variant,
      c: first?.type === 'l-diversity' && first.c !== undefined ? first.c : START.c,
      t: first?.type === 't-closeness' ? first.t : START.t,
      ...(first && attributeOf(first) !== undefined ? { attribute: attributeOf(first)! } : {}),
      deltaMin: first?.type === 'delta-presence' ? first.deltaMin : START.deltaMin,
      deltaMax: first?.type === 'delta-presence' ? first.deltaMax : START.deltaMax,
      subset: first?.type === 'delta-presence' ? first.subset : '',
      distance: first?.type === 't-closeness' ? first.distance : START.distance,
      risk: riskModel ? riskModel.risk : START.risk,
      attacker: riskModel?.attacker ?? 'prosecutor',
      populationKind: riskModel?.samplingFraction !== undefined ? 'fraction' : 'size',
      populationSize: riskModel?.populationSize ?? START.populationSize,
      samplingFraction: riskModel?.samplingFraction ?? START.samplingFraction,
      localSuppression: m.localSuppression !== undefined,
      lsK: m.localSuppression?.k ?? START.lsK,
      lsImportance: m.localSuppression?.importance ?? [],
      suppressionPercent: Number((m.suppressionLimit * 100).toFixed(6)),
      measure: m.measure,
      otherModels,
      ...(m.gsFactor !== undefined || m.attributeWeights !== undefined ? { lossSettings: { ...(m.gsFactor !== undefined ? { gsFactor: m.gsFactor } : {}), ...(m.attributeWeights !== undefined ? { attributeWeights: m.attributeWeights } : {}) } } : {}),
      levels: named(m.levels ?? named()),
    };
  },
  toMethod: (d, { recoding, roles }) => ({
    type: 'global-recoding',
    hierarchies: recodedHierarchies(d, recoding.hierarchies, roles),
    models: [...modelOf(d), ...(d.alsoK && d.model !== 'k-anonymity' && d.model !== 'none' ? [{ type: 'k-anonymity' as const, k: d.k }] : []), ...d.otherModels],
    suppressionLimit: d.suppressionPercent / 100,
    measure: d.measure,
    ...(d.measure === 'loss' ? d.lossSettings : {}),
    ...(d.localSuppression ? { localSuppression: { k: d.lsK, importance: d.lsImportance } } : {}),
    ...(Object.keys(d.levels).length > 0 ? { levels: d.levels } : {}),
  }),
  fieldOf: (path) => (path[0] === 'models' ? String(path[2] ?? 'model') : path[0] === 'localSuppression' ? `localSuppression.${String(path[1] ?? 'k')}` : String(path[0] ?? '')),
  formProblems: (d): Problems => (Number.isFinite(d.suppressionPercent) && d.suppressionPercent >= 0 && d.suppressionPercent <= 100 ? {} : { suppressionLimit: 'the suppression limit is a percentage from 0 to 100' }),
  dataProblems(d, context): Problems {
    const models = [...modelOf(d), ...d.otherModels];
    // A model that names its sensitive column (an opened job's "attribute") needs that column sensitive; one that does not, exactly one sensitive column.
    const sensitive = context.sensitive.map((c) => c.name);
    const named = models.map(attributeOf).find((name) => name !== undefined && !sensitive.includes(name));
    if (named !== undefined) return { roles: `"${named}", which a model names, is not marked sensitive` };
    if (models.some((m) => needsSensitiveColumn(m) && attributeOf(m) === undefined) && sensitive.length !== 1) return sensitive.length > 1 ? { attribute: 'several columns are marked sensitive: choose the one this model applies to' } : { roles: 'ℓ-diversity and t-closeness need a column marked sensitive' };
    return {};
  },
  Form,
};
