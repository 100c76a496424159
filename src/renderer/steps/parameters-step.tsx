import type { OpenedFile } from '../../common/ipc/api.js';
import { Callout, CheckField, NumberField, SelectField, TextField } from '../components/fields.js';
import { formatNumber } from '../format.js';
import { betaRows, maxRetention, parameterProblems } from '../state/validation.js';
import { NO_HIERARCHY, type Action, type HierarchyChoice, type WizardState } from '../state/wizard-state.js';
import { withName } from '../state/names.js';
import { levelsChosenAfterPreview } from '../state/job.js';

const BOUNDS = [
  { value: 'simplified', label: 'Simplified Chernoff bound (default)' },
  { value: 'full', label: 'Full Chernoff bound (stricter)' },
] as const;

/** chooseFile: the desktop's open dialog, which also grants the chosen file to the app (typed paths are not granted there). */
export function ParametersStep(props: { file: OpenedFile; state: WizardState; dispatch: (a: Action) => void; chooseFile?: (() => Promise<string | null>) | undefined }) {
  const { file, state, dispatch } = props;
  const problems = parameterProblems(state, file);
  const sensitive = file.columns.filter((c) => state.roles[c.name] === 'sensitive');
  if (state.method === 'beta-privacy') return <BetaParameters {...props} problems={problems} />;
  if (state.method === 'safe-k-anonymity' || state.method === 'partitioned-recoding') return <AnonymityParameters {...props} problems={problems} />;
  if (state.method === 'dp-counts') return <DpParameters {...props} problems={problems} />;
  const rp = state.method === 'reconstruction-privacy';
  const params = rp ? state.rp : state.up;
  const set = (patch: Partial<WizardState['rp'] & WizardState['up']>) => dispatch(rp ? { type: 'patch', section: 'rp', patch } : { type: 'patch', section: 'up', patch });
  const rhoMode = !rp && state.up.mode === 'rho';
  return (
    <>
      <p className="lead">{rp ? 'Set how strongly micro groups are protected.' : 'Set how often a sensitive value is kept.'}</p>
      {!rp && (
        <SelectField
          label="Set the retention"
          value={state.up.mode}
          options={[
            { value: 'retention', label: 'directly' },
            { value: 'rho', label: 'from a ρ1–ρ2 privacy target (the largest safe retention)' },
          ]}
          onChange={(mode) => dispatch({ type: 'patch', section: 'up', patch: { mode } })}
        />
      )}
      {!rhoMode && (
        <NumberField
          label="Retention probability p"
          slider
          min={0.01}
          max={0.99}
          step={0.01}
          value={params.retention}
          onChange={(retention) => set({ retention })}
          error={problems['retention']}
          help="Each record keeps its true sensitive value with probability p and otherwise gets a random one. Lower p protects more but makes every figure noisier."
        />
      )}
      <fieldset className="options">
        <legend>{rhoMode ? 'ρ1–ρ2 privacy target' : 'ρ1–ρ2 helper: the largest retention for a privacy target'}</legend>
        <NumberField label="ρ1 (prior at most)" min={0.001} max={0.999} step={0.01} value={state.up.rho1} onChange={(rho1) => dispatch({ type: 'patch', section: 'up', patch: { rho1 } })} error={problems['rho1']} help="An adversary who believes a value with probability at most ρ1…" />
        <NumberField label="ρ2 (posterior at most)" min={0.001} max={0.999} step={0.01} value={state.up.rho2} onChange={(rho2) => dispatch({ type: 'patch', section: 'up', patch: { rho2 } })} error={problems['rho2']} help="…must not end up believing it with probability above ρ2." />
        <div className="derived">
          {sensitive.map((c) => {
            const p = maxRetention(state.up.rho1, state.up.rho2, c.distinct);
            return (
              <p key={c.name}>
                “{c.name}” (m = {c.distinct}): maximum retention <strong>{Number.isFinite(p) ? p.toFixed(4) : 'n/a'}</strong>{' '}
                {!rhoMode && Number.isFinite(p) && p > 0 && (
                  <button type="button" className="link" onClick={() => set({ retention: Math.floor(p * 10000) / 10000 })}>
                    use it
                  </button>
                )}
              </p>
            );
          })}
        </div>
      </fieldset>
      <fieldset className="options">
        <legend>{rp ? 'Reconstruction privacy' : 'Leak test (which micro groups could be reconstructed)'}</legend>
        <NumberField label="ε (relative error)" min={0.01} max={2} step={0.05} value={params.epsilon} onChange={(epsilon) => set({ epsilon })} error={problems['epsilon']} help="The adversary's estimate of a group's share of a value must be off by more than this fraction. Larger ε is stricter." />
        <NumberField label="δ (confidence)" min={0.01} max={0.99} step={0.01} value={params.delta} onChange={(delta) => set({ delta })} error={problems['delta']} help="…with a probability of at least δ. Larger δ is stricter." />
        <SelectField label="Bound" value={params.bound} options={BOUNDS} onChange={(bound) => set({ bound })} help="The full bound certifies fewer records per group." />
        {rp && <CheckField label="Strict: trim the few sampled rows that coin flips add" checked={state.rp.strict} onChange={(strict) => dispatch({ type: 'patch', section: 'rp', patch: { strict } })} help="so every group passes the exact test (recommended)." />}
      </fieldset>
    </>
  );
}

function BetaParameters(props: { file: OpenedFile; state: WizardState; dispatch: (a: Action) => void; problems: Record<string, string> }) {
  const { file, state, dispatch, problems } = props;
  const b = state.beta;
  const column = file.columns.find((c) => state.roles[c.name] === 'sensitive');
  const set = (patch: Partial<WizardState['beta']>) => dispatch({ type: 'patch', section: 'beta', patch });
  const rows = column ? betaRows(state, column, file.rows) : [];
  return (
    <>
      <p className="lead">Give each sensitive value the largest probability with which an adversary may infer it (β). Rare, very sensitive values get a small β.</p>
      {problems['roles'] && <Callout tone="error">{problems['roles']}</Callout>}
      <SelectField
        label="β thresholds"
        value={b.mode}
        options={[
          { value: 'coefficient', label: 'proportional to frequency: β_v = c·f_v (the paper’s preset)' },
          { value: 'values', label: 'a default with per-value overrides' },
        ]}
        onChange={(mode) => set({ mode })}
      />
      {b.mode === 'coefficient' ? (
        <NumberField label="Privacy coefficient c" min={1} max={64} step={1} value={b.coefficient} onChange={(coefficient) => set({ coefficient })} error={problems['coefficient']} help="β_v = min(1, c·f_v): an adversary learns at most c times what the value's overall frequency already tells." />
      ) : (
        <TextField label="Default β" value={b.defaultBeta} onChange={(defaultBeta) => set({ defaultBeta })} help="A number or an exact fraction such as 1/4; overrides below." />
      )}
      {column && (
        <table className="grid beta-table">
          <caption>
            Values of “{column.name}” ({formatNumber(column.distinct)}) with their frequency and β
          </caption>
          <thead>
            <tr>
              <th scope="col">Value</th>
              <th scope="col" className="n">Records</th>
              <th scope="col" className="n">Frequency f</th>
              <th scope="col">β</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.value} className={r.problem ? 'bad' : undefined}>
                <th scope="row">{r.value}</th>
                <td className="n">{formatNumber(r.count)}</td>
                <td className="n">{r.frequency.toFixed(4)}</td>
                <td>
                  {b.mode === 'values' ? (
                    <input
                      type="text"
                      className="beta-input"
                      aria-label={`β for ${r.value}`}
                      placeholder={b.defaultBeta}
                      value={b.overrides[r.value] ?? ''}
                      onChange={(e) => set({ overrides: withName(b.overrides, r.value, e.target.value) })}
                    />
                  ) : (
                    <span>{r.beta !== undefined ? r.beta.toFixed(4) : 'n/a'}</span>
                  )}
                </td>
                <td>{r.problem ? <span className="error-text">{r.problem}</span> : <span className="ok-text">feasible</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {problems['beta'] && <Callout tone="error">{problems['beta']}</Callout>}
      <fieldset className="options">
        <legend>Buckets</legend>
        <SelectField
          label="Algorithm"
          value={b.algorithm}
          options={[
            { value: 'multi-size', label: 'Multi-size buckets (least information loss)' },
            { value: 'two-size', label: 'Two bucket sizes' },
            { value: 'anatomy', label: 'Anatomy (ℓ-diversity baseline)' },
          ]}
          onChange={(algorithm) => set({ algorithm })}
        />
        <NumberField label="Largest bucket" min={1} max={5000} step={1} value={b.maxBucket} onChange={(maxBucket) => set({ maxBucket })} error={problems['maxBucket']} help="Larger buckets admit stricter β but blur more. A value needs buckets of at least ⌈1/β⌉ records." />
        <NumberField label="Fake values per bucket" min={0} max={20} step={1} value={b.fakeValues} onChange={(fakeValues) => set({ fakeValues })} error={problems['fakeValues']} help="Protects against an adversary who already knows other people in the bucket (corruption attack), at some cost in accuracy." />
      </fieldset>
    </>
  );
}

function example(value: string | undefined, h: HierarchyChoice): string {
  if (value === undefined || h.kind === 'none' || h.level === 0) return value ?? '';
  if (h.kind === 'file') return `${value} → level ${h.level} of the file`;
  if (h.kind === 'masking') return h.level >= h.length ? `${value} → *` : value.length === h.length ? `${value} → ${value.slice(0, h.length - h.level)}${'*'.repeat(h.level)}` : `${value}: not ${h.length} characters long`;
  const widths = h.widths.split(',').map((w) => Number(w.trim()));
  if (h.level > widths.length) return `${value} → *`;
  const w = widths[h.level - 1]!;
  const v = Number(value);
  if (!Number.isInteger(v) || !(w >= 2)) return `${value}: not a whole number`;
  const start = Math.floor(v / w) * w;
  return `${value} → ${start}-${start + w - 1}`;
}

function AnonymityParameters(props: { file: OpenedFile; state: WizardState; dispatch: (a: Action) => void; problems: Record<string, string>; chooseFile?: (() => Promise<string | null>) | undefined }) {
  const { file, state, dispatch, problems } = props;
  const safe = state.method === 'safe-k-anonymity';
  const kn = state.kanon;
  const p = state.partition;
  const setK = (patch: Partial<WizardState['kanon']>) => dispatch({ type: 'patch', section: 'kanon', patch });
  const setP = (patch: Partial<WizardState['partition']>) => dispatch({ type: 'patch', section: 'partition', patch });
  const columns = file.columns.filter((c) => state.roles[c.name] !== 'identifier');
  return (
    <>
      <p className="lead">
        {safe
          ? 'Choose the sampling rate and k, then how coarsely each column is released. The guarantee covers fixed levels only if they were chosen without looking at this data; the private search chooses them within the guarantee.'
          : 'Choose the privacy model and the number of random parts, then how coarsely each column is released.'}
      </p>
      {problems['roles'] && <Callout tone="error">{problems['roles']}</Callout>}
      {levelsChosenAfterPreview(state) && (
        <Callout tone="warn" title="These levels were changed after a risk preview of this file.">
          Levels chosen by looking at this data are not covered by the differential-privacy guarantee. Let Custos choose them with the private search (“Choose the levels for me with a differentially private search” below), which accounts for its choice.
        </Callout>
      )}
      {safe ? (
        <fieldset className="options">
          <legend>Sampling and k</legend>
          <CheckField label="Meet a target (ε, δ)" checked={kn.useTarget} onChange={(useTarget) => setK({ useTarget })} help="and let Custos choose k or the sampling rate" />
          {kn.useTarget && (
            <SelectField
              label="Choose for me"
              value={kn.solve}
              options={[
                { value: 'none', label: 'nothing: check my k and sampling rate' },
                { value: 'k', label: 'the smallest k for my sampling rate' },
                { value: 'sampling', label: 'the largest sampling rate for my k' },
              ]}
              onChange={(solve) => setK({ solve })}
            />
          )}
          {!(kn.useTarget && kn.solve === 'k') && <NumberField label="k" min={2} max={1000} step={1} value={kn.k} onChange={(k) => setK({ k })} error={problems['k']} help="Every released combination of values appears at least k times." />}
          {!(kn.useTarget && kn.solve === 'sampling') && (
            <NumberField label="Sampling rate β" slider min={0.01} max={0.99} step={0.01} value={kn.sampling} onChange={(sampling) => setK({ sampling })} error={problems['sampling']} help="Each record enters the release with this probability. A smaller sample gives a stronger guarantee." />
          )}
          <CheckField label="Choose the levels for me with a differentially private search" checked={kn.search} onChange={(search) => setK({ search })} help="over every combination of the hierarchies' levels (exponential mechanism); its budget is added to ε." />
          {kn.search && (
            <>
              <NumberField label="Search budget ε_sel" min={0.01} max={2} step={0.05} value={kn.searchEpsilon} onChange={(searchEpsilon) => setK({ searchEpsilon })} error={problems['searchEpsilon']} help="Spent on choosing the generalization; taken out of the target ε when a target is set." />
              <NumberField
                label="Weight of detail λ"
                slider
                min={0}
                max={1}
                step={0.05}
                value={kn.searchLossWeight}
                onChange={(searchLossWeight) => setK({ searchLossWeight })}
                error={problems['searchLossWeight']}
                help="The search scores each kept record 1 − λ × its generalization loss and each deleted record 0: 0 keeps the most records, 1 keeps the most detail (SafePub's choice)."
              />
              <SelectField
                label="Search over"
                value={kn.searchStrategy}
                options={[
                  { value: 'lattice', label: 'every combination of levels' },
                  { value: 'path', label: "SafePub's walk (huge lattices)" },
                ]}
                onChange={(searchStrategy) => setK({ searchStrategy })}
              />
            </>
          )}
          {kn.useTarget && (
            <>
              <NumberField label="Target ε" min={0.01} max={10} step={0.1} value={kn.targetEpsilon} onChange={(targetEpsilon) => setK({ targetEpsilon })} error={problems['targetEpsilon']} help="How much one person's presence may change any release (a factor e^ε)." />
              <NumberField label="Target δ" min={1e-12} max={0.5} step={1e-6} value={kn.targetDelta} onChange={(targetDelta) => setK({ targetDelta })} error={problems['targetDelta']} help="The small probability with which that bound may fail." />
            </>
          )}
        </fieldset>
      ) : (
        <fieldset className="options">
          <legend>Model and parts</legend>
          <SelectField
            label="Privacy model"
            value={p.model}
            options={[
              { value: 'k-anonymity', label: 'k-anonymity' },
              { value: 'l-diversity', label: 'ℓ-diversity (distinct)' },
              { value: 't-closeness', label: 't-closeness' },
            ]}
            onChange={(model) => setP({ model })}
          />
          {p.model === 'k-anonymity' && <NumberField label="k" min={2} max={1000} step={1} value={p.k} onChange={(k) => setP({ k })} error={problems['k']} help="Every class of records sharing their quasi-identifiers has at least k records." />}
          {p.model === 'l-diversity' && <NumberField label="ℓ" min={2} max={100} step={1} value={p.l} onChange={(l) => setP({ l })} error={problems['l']} help="Every class holds at least ℓ different sensitive values." />}
          {p.model === 't-closeness' && <NumberField label="t" min={0.01} max={1} step={0.01} value={p.t} onChange={(t) => setP({ t })} error={problems['t']} help="Every class's sensitive distribution is within t of the whole part's." />}
          <NumberField label="Parts" min={1} max={100} step={1} value={p.parts} onChange={(parts) => setP({ parts })} error={problems['parts']} help="Random disjoint parts of equal size, each anonymized on its own with the same generalization." />
        </fieldset>
      )}
      <table className="grid hierarchy-table">
        <caption>Generalization per column</caption>
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">Hierarchy</th>
            <th scope="col">Definition</th>
            <th scope="col" className="n">Level</th>
            <th scope="col">Preview</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((c) => {
            const h = state.hierarchies[c.name] ?? NO_HIERARCHY;
            const set = (patch: Partial<HierarchyChoice>) => dispatch({ type: 'setHierarchy', column: c.name, patch });
            const problem = problems[`hierarchy.${c.name}`];
            return (
              <tr key={c.name} className={problem ? 'bad' : undefined}>
                <th scope="row">{c.name}</th>
                <td>
                  <select aria-label={`Hierarchy of ${c.name}`} value={h.kind} onChange={(e) => set({ kind: e.target.value as HierarchyChoice['kind'], level: e.target.value === 'none' ? 0 : Math.max(1, h.level) })}>
                    <option value="none">none: as collected</option>
                    <option value="file">ARX hierarchy file</option>
                    <option value="interval">intervals (numbers)</option>
                    <option value="masking">masking (codes)</option>
                  </select>
                </td>
                <td>
                  {h.kind === 'file' && <input type="text" aria-label={`Hierarchy file of ${c.name}`} value={h.file} placeholder="/path/hierarchy.csv" onChange={(e) => set({ file: e.target.value })} />}
                  {h.kind === 'file' && props.chooseFile && (
                    <button type="button" onClick={() => void props.chooseFile!().then((path) => path && set({ file: path }))}>
                      Choose…<span className="visually-hidden"> the hierarchy file of {c.name}</span>
                    </button>
                  )}
                  {h.kind === 'interval' && <input type="text" aria-label={`Interval widths of ${c.name}`} value={h.widths} onChange={(e) => set({ widths: e.target.value })} />}
                  {h.kind === 'masking' && <input type="number" aria-label={`Code length of ${c.name}`} min={1} max={64} value={h.length} onChange={(e) => set({ length: Number(e.target.value) })} />}
                  {problem && <p className="error-text">{problem}</p>}
                </td>
                <td className="n">
                  {h.kind !== 'none' && (safe && kn.search ? <span className="muted">searched</span> : <input type="number" aria-label={`Level of ${c.name}`} min={0} max={64} value={h.level} onChange={(e) => set({ level: Number(e.target.value) })} />)}
                </td>
                <td className="muted">{example(c.top[0]?.value, h)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

function DpParameters(props: { file: OpenedFile; state: WizardState; dispatch: (a: Action) => void; problems: Record<string, string> }) {
  const { file, state, dispatch, problems } = props;
  const d = state.dp;
  const set = (patch: Partial<WizardState['dp']>) => dispatch({ type: 'patch', section: 'dp', patch });
  const columns = file.columns.filter((c) => state.roles[c.name] !== 'identifier');
  const marginals = d.columns.length + (d.columns.length * (d.columns.length - 1)) / 2;
  const cellColumns = [...new Set([...d.columns, ...(d.seriesBy ? [d.seriesBy] : [])])];
  return (
    <>
      <p className="lead">Choose which counts to publish and how much noise protects them. All 1- and 2-way marginals over the chosen columns are released.</p>
      <fieldset className="options">
        <legend>Columns to count</legend>
        {columns.map((c) => (
          <CheckField
            key={c.name}
            label={`${c.name} (${formatNumber(c.distinct)} values)`}
            checked={d.columns.includes(c.name)}
            onChange={(on) => set({ columns: on ? [...d.columns, c.name] : d.columns.filter((x) => x !== c.name) })}
          />
        ))}
        {problems['columns'] && <p className="error-text">{problems['columns']}</p>}
      </fieldset>
      {cellColumns.length > 0 && (
        <fieldset className="options">
          <legend>Public values (the cells of the tables)</legend>
          <p className="help">
            Every listed value gets a cell, whether or not the data hold it. Left empty, the cells are the values found in the data, and the release then shows which values occur — a value held by one person reveals that person.
          </p>
          {cellColumns.map((name) => {
            const info = file.columns.find((c) => c.name === name);
            const complete = info !== undefined && info.distinct <= info.top.length;
            return (
              <div key={name} className="field wide">
                <TextField label={`Public values of ${name}`} value={d.domains[name] ?? ''} onChange={(text) => set({ domains: withName(d.domains, name, text) })} placeholder="empty: the data's values" wide />
                {complete && (
                  <button type="button" onClick={() => set({ domains: withName(d.domains, name, info.top.map((t) => t.value).sort().join(', ')) })}>
                    Use the file's {formatNumber(info.distinct)} values
                  </button>
                )}
                {problems[`domain.${name}`] && <p className="error-text">{problems[`domain.${name}`]}</p>}
              </div>
            );
          })}
        </fieldset>
      )}
      <fieldset className="options">
        <legend>Noise</legend>
        <NumberField
          label="ε (privacy budget)"
          min={0.01}
          max={20}
          step={0.1}
          value={d.epsilon}
          onChange={(epsilon) => set({ epsilon })}
          error={problems['epsilon']}
          help={`Split over ${marginals} marginal table(s): each count gets noise of scale ${marginals > 0 && d.epsilon > 0 ? (marginals / d.epsilon).toPrecision(3) : 'n/a'}. Smaller ε protects more.`}
        />
        <SelectField
          label="Noise"
          value={d.noise}
          options={[
            { value: 'laplace', label: 'independent discrete Laplace (ε-DP)' },
            { value: 'generalized-laplace', label: 'correlated generalized Laplace (for correlated counts)' },
          ]}
          onChange={(noise) => set({ noise })}
          help="Correlated noise resists filtering of series, but the joint release is only described by ε_eff."
        />
        {d.noise === 'generalized-laplace' && (
          <>
            <SelectField
              label="Correlation model"
              value={d.correlation}
              options={[
                { value: 'none', label: 'none (series only)' },
                { value: 'ar1', label: 'AR(1) along the answers or series' },
                { value: 'groupBy', label: 'within groups of a column' },
              ]}
              onChange={(correlation) => set({ correlation })}
            />
            {problems['correlation'] && <p className="error-text">{problems['correlation']}</p>}
            {d.correlation !== 'none' && <NumberField label="ρ" min={-0.95} max={0.95} step={0.05} value={d.rho} onChange={(rho) => set({ rho })} error={problems['rho']} help="Public correlation of the noise; capped at 0.95." />}
            {d.correlation === 'groupBy' && (
              <SelectField label="Group by" value={d.groupBy} options={[{ value: '', label: 'choose…' }, ...d.columns.map((c) => ({ value: c, label: c }))]} onChange={(groupBy) => set({ groupBy })} />
            )}
            <SelectField label="Series over" value={d.seriesBy} options={[{ value: '', label: 'no series' }, ...columns.map((c) => ({ value: c.name, label: c.name }))]} onChange={(seriesBy) => set({ seriesBy })} help="Each count becomes a series over this column (e.g. month), with AR(1) noise along it." />
          </>
        )}
        <NumberField label="Parts" min={1} max={100} step={1} value={d.parts} onChange={(parts) => set({ parts })} error={problems['parts']} help="Answer the counts on random parts of equal size (reported with ε′ of Theorem 2)." />
      </fieldset>
    </>
  );
}
