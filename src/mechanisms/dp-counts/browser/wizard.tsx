import { own, type Named } from '../../../common/job/names.js';
import type { BrowserMechanism, FormProps, WizardContext } from '../../../renderer/components/browser-mechanism.js';
import { CheckField, NumberField, SelectField } from '../../../renderer/components/fields.js';
import { DomainFields, domainProblem, domainsOf, listedValues, textsOf } from '../../../renderer/components/domain-fields.js';
import type { DomainSpec } from '../../../common/job/job-parts.js';
import { formatNumber } from '../../../common/format/numbers.js';
import { dpCounts, type DpCountsSpec } from '../definition.js';
import { MAX_RHO } from '../glm.js';

export interface DpCountsDraft {
  readonly epsilon: number;
  readonly columns: readonly string[];
  readonly noise: 'laplace' | 'generalized-laplace';
  readonly correlation: 'none' | 'ar1' | 'groupBy';
  readonly rho: number;
  readonly groupBy: string;
  readonly seriesBy: string;
  readonly iteration: 'keep' | 'refresh';
  readonly parts: number;
  /** Public values per column, as typed (comma or line separated), or "from-data", "value-labels", "hierarchy: FILE"; empty: no decision (the values in the data). */
  readonly domains: Named<string>;
}

/** The correlation offered before one is set. */
const START_RHO = 0.5;

/** The typed public values of a column, as the job's domain. */
export const publicValues = listedValues;

/** The counted and series columns: the only ones whose public values the job takes. */
function cellColumns(d: DpCountsDraft): string[] {
  return [...new Set([...d.columns, ...(d.seriesBy ? [d.seriesBy] : [])])];
}

function publicDomains(d: DpCountsDraft): { domains?: Record<string, DomainSpec> } {
  return domainsOf(d.domains, cellColumns(d));
}

function Form({ draft, set, context, problems }: FormProps<DpCountsDraft>) {
  const { file, roles } = context;
  const columns = file.columns.filter((c) => own(roles, c.name) !== 'identifier');
  const marginals = draft.columns.length + (draft.columns.length * (draft.columns.length - 1)) / 2;
  return (
    <>
      <p className="lead">Choose which counts to publish and how much noise protects them. All 1- and 2-way marginals over the chosen columns are released.</p>
      <fieldset className="options">
        <legend>Columns to count</legend>
        {columns.map((c) => (
          <CheckField
            key={c.name}
            label={`${c.name} (${formatNumber(c.distinct)} values)`}
            checked={draft.columns.includes(c.name)}
            onChange={(on) => set({ columns: on ? [...draft.columns, c.name] : draft.columns.filter((x) => x !== c.name) })}
          />
        ))}
        {problems['columns'] && <p className="error-text">{problems['columns']}</p>}
      </fieldset>
      {cellColumns(draft).length > 0 && (
        <fieldset className="options">
          <legend>Public values (the cells of the tables)</legend>
          <DomainFields
            columns={cellColumns(draft)}
            texts={draft.domains}
            file={file}
            set={(domains) => set({ domains })}
            problems={problems}
            missingCategory={false}
            what="Every listed value gets a cell, whether or not the data hold it."
          />
        </fieldset>
      )}
      <fieldset className="options">
        <legend>Noise</legend>
        <NumberField
          label="ε (privacy budget)" direction={{ stricter: 'smaller' }}
          min={0.01}
          max={20}
          step={0.1}
          value={draft.epsilon}
          onChange={(epsilon) => set({ epsilon })}
          error={problems['epsilon']}
          help={`Split over ${marginals} marginal table(s): each count gets noise of scale ${marginals > 0 && draft.epsilon > 0 ? (marginals / draft.epsilon).toPrecision(3) : 'n/a'}. Smaller ε protects more.`}
        />
        <SelectField
          label="Noise"
          value={draft.noise}
          options={[
            { value: 'laplace', label: 'independent discrete Laplace (ε-DP)' },
            { value: 'generalized-laplace', label: 'correlated generalized Laplace (for correlated counts)' },
          ]}
          onChange={(noise) => set({ noise })}
          help="Correlated noise resists filtering of series, but the joint release is only described by ε_eff."
        />
        {draft.noise === 'generalized-laplace' && (
          <>
            <SelectField
              label="Correlation model"
              value={draft.correlation}
              options={[
                { value: 'none', label: 'none (series only)' },
                { value: 'ar1', label: 'AR(1) along the answers or series' },
                { value: 'groupBy', label: 'within groups of a column' },
              ]}
              onChange={(correlation) => set({ correlation })}
            />
            {problems['correlation'] && <p className="error-text">{problems['correlation']}</p>}
            {draft.correlation !== 'none' && <NumberField label="ρ" direction={{ neither: 'Neither: the noise’s correlation changes its shape, not ε.' }} min={-MAX_RHO} max={MAX_RHO} step={0.05} value={draft.rho} onChange={(rho) => set({ rho })} error={problems['rho']} help={`Public correlation of the noise; capped at ${MAX_RHO}.`} />}
            {draft.correlation === 'groupBy' && (
              <SelectField label="Group by" value={draft.groupBy} options={[{ value: '', label: 'choose…' }, ...draft.columns.map((c) => ({ value: c, label: c }))]} onChange={(groupBy) => set({ groupBy })} />
            )}
            {problems['groupBy'] && <p className="error-text">{problems['groupBy']}</p>}
            <SelectField label="Series over" value={draft.seriesBy} options={[{ value: '', label: 'no series' }, ...columns.map((c) => ({ value: c.name, label: c.name }))]} onChange={(seriesBy) => set({ seriesBy })} help="Each count becomes a series over this column (e.g. month), with AR(1) noise along it." />
          </>
        )}
        <NumberField label="Parts" direction={{ neither: 'Neither: the parts together keep ε (each record is in one part); more parts answer on fewer records each.' }} min={1} max={100} step={1} value={draft.parts} onChange={(parts) => set({ parts })} error={problems['parts']} help="Answer the counts on random parts of equal size (reported with ε′ of Theorem 2)." />
      </fieldset>
    </>
  );
}

/** Public values that cannot be a domain, or that leave out values the file holds. */
function dataProblems(d: DpCountsDraft, context: WizardContext): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const column of cellColumns(d)) {
    const problem = domainProblem(own(d.domains, column) ?? '', column, context.file);
    if (problem) problems[`domain.${column}`] = problem;
  }
  return problems;
}

export const dpCountsBrowser: BrowserMechanism<DpCountsSpec, DpCountsDraft> = {
  definition: dpCounts,
  sensitive: dpCounts.metadata.sensitiveColumns,
  recodes: false,
  tableLevels: null,
  latticeChoice: null,
  fromMethod: (m) => ({
    epsilon: m.epsilon,
    columns: m.columns ?? [],
    noise: m.noise,
    correlation: m.correlation ? ('model' in m.correlation ? 'ar1' : 'groupBy') : 'none',
    rho: m.correlation?.rho ?? START_RHO,
    groupBy: m.correlation && 'groupBy' in m.correlation ? m.correlation.groupBy : '',
    seriesBy: m.series?.by ?? '',
    iteration: m.series?.iteration ?? 'keep',
    parts: m.parts,
    domains: textsOf(m.domains),
  }),
  toMethod: (d) => ({
    type: 'dp-counts',
    epsilon: d.epsilon,
    queries: 'marginals',
    columns: [...d.columns],
    noise: d.noise,
    ...(d.correlation === 'ar1' ? { correlation: { model: 'ar1', rho: d.rho } } : d.correlation === 'groupBy' ? { correlation: { groupBy: d.groupBy, rho: d.rho } } : {}),
    ...(d.seriesBy ? { series: { by: d.seriesBy, iteration: d.iteration } } : {}),
    parts: d.parts,
    ...publicDomains(d),
  }),
  fieldOf: (path) => (path[0] === 'correlation' ? (path[1] === 'rho' ? 'rho' : path[1] === 'groupBy' ? 'groupBy' : 'correlation') : path[0] === 'domains' && path.length > 1 ? `domain.${String(path[1])}` : String(path[0] ?? '')),
  dataProblems,
  Form,
};
