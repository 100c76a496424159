import { minimumEpsilon } from '../../../common/dp/sampling-amplification.js';
import type { BrowserMechanism, FormProps } from '../../../renderer/components/browser-mechanism.js';
import { Callout, CheckField, NumberField, SelectField } from '../../../renderer/components/fields.js';
import { safeKAnonymity, type SafeKAnonymitySpec } from '../definition.js';
import { schema } from '../definition.js';

export interface SafeKAnonymityDraft {
  readonly k: number;
  readonly sampling: number;
  /** Which parameter the solver chooses from the target, if any. */
  readonly solve: 'none' | 'k' | 'sampling';
  readonly useTarget: boolean;
  readonly targetEpsilon: number;
  readonly targetDelta: number;
  /** Choose the levels with the exponential mechanism instead of fixing them. */
  readonly search: boolean;
  readonly searchEpsilon: number;
  /** λ of the search score: 0 favours released records, 1 detail. */
  readonly searchLossWeight: number;
  readonly searchStrategy: 'lattice' | 'path';
}

const START = schema.parse(safeKAnonymity.suggested);
/** The target offered before one is set. */
const START_TARGET = { epsilon: 1, delta: 1e-6 };

function Form({ draft, set, problems, recodingTable, levelsChangedAfterPreview }: FormProps<SafeKAnonymityDraft>) {
  return (
    <>
      <p className="lead">
        Choose the sampling rate and k, then how coarsely each column is released. The guarantee covers fixed levels only if they were chosen without looking at this data; the private search chooses them within the guarantee.
      </p>
      {problems['roles'] && <Callout tone="error">{problems['roles']}</Callout>}
      {levelsChangedAfterPreview && (
        <Callout tone="warn" title="These levels were changed after a risk preview of this file.">
          Levels chosen by looking at this data are not covered by the differential-privacy guarantee. Let Custos choose them with the private search (“Choose the levels for me with a differentially private search” below), which accounts for its choice.
        </Callout>
      )}
      <fieldset className="options">
        <legend>Sampling and k</legend>
        <CheckField label="Meet a target (ε, δ)" checked={draft.useTarget} onChange={(useTarget) => set({ useTarget })} help="and let Custos choose k or the sampling rate" />
        {draft.useTarget && (
          <SelectField
            label="Choose for me"
            value={draft.solve}
            options={[
              { value: 'none', label: 'nothing: check my k and sampling rate' },
              { value: 'k', label: 'the smallest k for my sampling rate' },
              { value: 'sampling', label: 'the largest sampling rate for my k' },
            ]}
            onChange={(solve) => set({ solve })}
          />
        )}
        {!(draft.useTarget && draft.solve === 'k') && <NumberField label="k" direction={{ stricter: 'larger' }} min={2} max={1000} step={1} value={draft.k} onChange={(k) => set({ k })} error={problems['k']} help="Every released combination of values appears at least k times." />}
        {!(draft.useTarget && draft.solve === 'sampling') && (
          <NumberField label="Sampling rate β" direction={{ stricter: 'smaller' }} slider min={0.01} max={0.99} step={0.01} value={draft.sampling} onChange={(sampling) => set({ sampling })} error={problems['sampling']} help="Each record enters the release with this probability. A smaller sample gives a stronger guarantee." />
        )}
        <CheckField label="Choose the levels for me with a differentially private search" checked={draft.search} onChange={(search) => set({ search })} help="over every combination of the hierarchies' levels (exponential mechanism); its budget is added to ε." />
        {problems['levels'] && <p className="error-text">{problems['levels']}</p>}
        {draft.search && (
          <>
            <NumberField label="Search budget ε_sel" direction={{ stricter: 'smaller' }} min={0.01} max={2} step={0.05} value={draft.searchEpsilon} onChange={(searchEpsilon) => set({ searchEpsilon })} error={problems['searchEpsilon']} help="Spent on choosing the generalization; taken out of the target ε when a target is set." />
            <NumberField
              label="Weight of detail λ" direction={{ neither: 'Neither: 0 favours keeping records, 1 keeping detail.' }}
              slider
              min={0}
              max={1}
              step={0.05}
              value={draft.searchLossWeight}
              onChange={(searchLossWeight) => set({ searchLossWeight })}
              error={problems['searchLossWeight']}
              help="The search scores each kept record 1 − λ × its generalization loss and each deleted record 0: 0 keeps the most records, 1 keeps the most detail (SafePub's choice)."
            />
            <SelectField
              label="Search over"
              value={draft.searchStrategy}
              options={[
                { value: 'lattice', label: 'every combination of levels' },
                { value: 'path', label: "SafePub's walk (huge lattices)" },
              ]}
              onChange={(searchStrategy) => set({ searchStrategy })}
            />
          </>
        )}
        {draft.useTarget && (
          <>
            <NumberField label="Target ε" direction={{ stricter: 'smaller' }} min={0.01} max={10} step={0.1} value={draft.targetEpsilon} onChange={(targetEpsilon) => set({ targetEpsilon })} error={problems['targetEpsilon']} help="How much one person's presence may change any release (a factor e^ε)." />
            <NumberField label="Target δ" direction={{ stricter: 'smaller' }} min={1e-12} max={0.5} step={1e-6} value={draft.targetDelta} onChange={(targetDelta) => set({ targetDelta })} error={problems['targetDelta']} help="The small probability with which that bound may fail." />
          </>
        )}
      </fieldset>
      {recodingTable}
    </>
  );
}

export const safeKAnonymityBrowser: BrowserMechanism<SafeKAnonymitySpec, SafeKAnonymityDraft> = {
  definition: safeKAnonymity,
  sensitive: safeKAnonymity.metadata.sensitiveColumns,
  recodes: true,
  tableLevels: (m) => m.levels,
  latticeChoice: null,
  levelsSearched: (d) => d.search,
  fromMethod: (m) => ({
    k: m.k === 'auto' ? (START.k as number) : m.k,
    sampling: m.sampling === 'auto' ? (START.sampling as number) : m.sampling,
    solve: m.k === 'auto' ? 'k' : m.sampling === 'auto' ? 'sampling' : 'none',
    useTarget: m.target !== undefined,
    targetEpsilon: m.target?.epsilon ?? START_TARGET.epsilon,
    targetDelta: m.target?.delta ?? START_TARGET.delta,
    search: m.levels === 'search',
    searchEpsilon: m.searchEpsilon,
    searchLossWeight: m.searchLossWeight,
    searchStrategy: m.searchStrategy,
  }),
  toMethod: (d, { recoding }) => ({
    type: 'safe-k-anonymity',
    k: d.useTarget && d.solve === 'k' ? 'auto' : d.k,
    sampling: d.useTarget && d.solve === 'sampling' ? 'auto' : d.sampling,
    hierarchies: recoding.hierarchies,
    levels: d.search ? 'search' : recoding.levels,
    ...(d.search ? { searchEpsilon: d.searchEpsilon, searchLossWeight: d.searchLossWeight, searchStrategy: d.searchStrategy } : {}),
    ...(d.useTarget ? { target: { epsilon: d.targetEpsilon, delta: d.targetDelta } } : {}),
  }),
  fieldOf: (path) => (path[0] === 'target' ? (path[1] === 'delta' ? 'targetDelta' : 'targetEpsilon') : path[0] === 'levels' && path.length > 1 ? `hierarchy.${String(path[1])}` : String(path[0] ?? '')),
  dataProblems(d) {
    // These span the target and the search; the schema checks each value alone.
    const problems: Record<string, string> = {};
    if (d.useTarget && d.solve !== 'sampling' && d.sampling > 0 && d.sampling < 1 && d.targetEpsilon < minimumEpsilon(d.sampling)) {
      problems['targetEpsilon'] = `at least −ln(1−β) = ${minimumEpsilon(d.sampling).toFixed(4)} for this sampling rate`;
    }
    if (d.search && d.useTarget && d.searchEpsilon >= d.targetEpsilon) problems['searchEpsilon'] = 'must be smaller than the target ε, which it comes out of';
    return problems;
  },
  Form,
};
