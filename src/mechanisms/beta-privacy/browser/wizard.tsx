import type { ColumnInfo } from '../../../common/ipc/api.js';
import { compare, mul, parseRational, rational, rationalFromNumber, toNumber, type Rational } from '../../../common/exact/rational.js';
import { named, own, withName, type Named } from '../../../common/job/names.js';
import type { BrowserMechanism, FormProps, Problems } from '../../../renderer/components/browser-mechanism.js';
import { Callout, NumberField, SelectField, TextField } from '../../../renderer/components/fields.js';
import { DomainFields, domainOfText, domainProblems, domainsOf, sensitiveNames, textsOf, type DomainTexts } from '../../../renderer/components/domain-fields.js';
import { formatNumber } from '../../../common/format/numbers.js';
import { betaPrivacy, type BetaPrivacySpec } from '../definition.js';

export interface BetaPrivacyDraft {
  readonly mode: 'coefficient' | 'values';
  readonly coefficient: number;
  /** β as typed: a decimal or an exact fraction such as "1/4". */
  readonly defaultBeta: string;
  readonly overrides: Named<string>;
  readonly algorithm: 'multi-size' | 'two-size' | 'anatomy';
  readonly maxBucket: number;
  readonly fakeValues: number;
  /** The sensitive column's domain, as the field shows it (domain-fields.tsx). */
  readonly domains: DomainTexts;
}

/** The starting values of the mode not chosen (the suggested method uses the coefficient). */
const START_DEFAULT_BETA = '0.3';
const START_COEFFICIENT = 8;

export interface BetaRow {
  readonly value: string;
  readonly count: number;
  readonly frequency: number;
  readonly betaText: string;
  readonly beta?: number;
  readonly problem?: string;
  /** The exact frequency behind a problem, shown on hover ("4038/30162"). */
  readonly exact?: string;
}

const ONE = rational(1n);

/** The problem of a β below the value's frequency: the frequency as a decimal, the exact fraction beside it for hover. */
function tooSmall(count: number, total: number): { problem: string; exact: string } {
  // Rounded up, so the β it suggests is never still too small.
  const shown = Math.ceil((count / total) * 10_000) / 10_000;
  return { problem: `infeasible: β must be at least f = ${shown.toFixed(4)}`, exact: `${count}/${total}` };
}

function betaOf(text: string): Rational | undefined {
  try {
    const r = parseRational(text.trim());
    return r.num > 0n && r.num <= r.den ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The values the β table lists: a declared domain's, in its order (a value no record holds counts 0,
 * and gets its β all the same: the run sets one for it), then any value of the file the list leaves
 * out (the domain field names those as a problem); without a declared list, the file's values.
 */
function tableValues(draft: BetaPrivacyDraft, column: ColumnInfo): readonly { readonly value: string; readonly count: number }[] {
  const declared = domainOfText(own(draft.domains, column.name) ?? '');
  if (!Array.isArray(declared)) return column.top;
  const counts = new Map(column.top.map((t) => [t.value, t.count]));
  const listed = [...new Set(declared)];
  return [...listed.map((value) => ({ value, count: counts.get(value) ?? 0 })), ...column.top.filter((t) => !listed.includes(t.value))];
}

/**
 * The β of every value of the sensitive column, in exact rationals as the
 * engine computes them, with infeasible values flagged (f_v > β_v: no bucket
 * can hold the value's rows within its bound).
 */
export function betaRows(draft: BetaPrivacyDraft, column: ColumnInfo, total: number): BetaRow[] {
  return tableValues(draft, column).map((t) => {
    const frequency = t.count / total;
    const f = rational(BigInt(t.count), BigInt(total));
    if (draft.mode === 'coefficient') {
      let beta: Rational;
      try {
        beta = mul(rationalFromNumber(draft.coefficient), f);
      } catch {
        return { value: t.value, count: t.count, frequency, betaText: 'n/a', problem: 'the coefficient must be a number' };
      }
      const capped = compare(beta, ONE) > 0 ? ONE : beta;
      const feasible = compare(f, capped) <= 0;
      return { value: t.value, count: t.count, frequency, betaText: compare(capped, ONE) === 0 ? '1' : `${draft.coefficient}·f`, beta: toNumber(capped), ...(feasible ? {} : tooSmall(t.count, total)) };
    }
    const betaText = own(draft.overrides, t.value)?.trim() || draft.defaultBeta;
    const beta = betaOf(betaText);
    if (!beta) return { value: t.value, count: t.count, frequency, betaText, problem: 'β must be a number or fraction in (0, 1]' };
    const feasible = compare(f, beta) <= 0;
    return { value: t.value, count: t.count, frequency, betaText, beta: toNumber(beta), ...(feasible ? {} : tooSmall(t.count, total)) };
  });
}

function Form({ draft, set, context, problems }: FormProps<BetaPrivacyDraft>) {
  const column = context.sensitive[0];
  const rows = column ? betaRows(draft, column, context.file.rows) : [];
  return (
    <>
      <p className="lead">Give each sensitive value the largest probability with which an adversary may infer it (β). Rare, very sensitive values get a small β.</p>
      {problems['roles'] && <Callout tone="error">{problems['roles']}</Callout>}
      <SelectField
        label="β thresholds"
        value={draft.mode}
        options={[
          { value: 'coefficient', label: 'proportional to frequency: β_v = c·f_v (the paper’s preset)' },
          { value: 'values', label: 'a default with per-value overrides' },
        ]}
        onChange={(mode) => set({ mode })}
      />
      {draft.mode === 'coefficient' ? (
        <NumberField label="Privacy coefficient c" direction={{ stricter: 'smaller' }} min={1} max={64} step={1} value={draft.coefficient} onChange={(coefficient) => set({ coefficient })} error={problems['coefficient']} help="β_v = min(1, c·f_v): an adversary learns at most c times what the value's overall frequency already tells." />
      ) : (
        <TextField label="Default β" value={draft.defaultBeta} onChange={(defaultBeta) => set({ defaultBeta })} help="A number or an exact fraction such as 1/4; overrides below." />
      )}
      {column && (
        <table className="grid beta-table">
          <caption>
            Values of “{column.name}” ({formatNumber(rows.length)}{rows.length !== column.distinct ? `: the declared domain; ${formatNumber(column.distinct)} in the file` : ''}) with their frequency and β
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
                  {draft.mode === 'values' ? (
                    <input
                      type="text"
                      className="beta-input"
                      aria-label={`β for ${r.value}`}
                      placeholder={draft.defaultBeta}
                      value={own(draft.overrides, r.value) ?? ''}
                      onChange={(e) => set({ overrides: withName(draft.overrides, r.value, e.target.value) })}
                    />
                  ) : (
                    <span>{r.beta !== undefined ? r.beta.toFixed(4) : 'n/a'}</span>
                  )}
                </td>
                <td>
                  {r.problem ? (
                    <span className="error-text" title={r.exact ? `f = ${r.exact} exactly` : undefined}>{r.problem}</span>
                  ) : r.beta !== undefined && r.beta >= 1 ? (
                    <span className="warn-text">not protected (β = 1 bounds nothing)</span>
                  ) : (
                    <span className="ok-text">feasible</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {problems['beta'] && <Callout tone="error">{problems['beta']}</Callout>}
      {(() => {
        const unprotected = rows.filter((r) => !r.problem && r.beta !== undefined && r.beta >= 1);
        if (unprotected.length === 0) return null;
        const records = unprotected.reduce((sum, r) => sum + r.count, 0);
        return (
          <Callout tone="warn">
            {unprotected.length === 1 ? '1 value has' : `${unprotected.length} values have`} β = 1 ({unprotected.map((r) => `“${r.value}”`).join(', ')}; {formatNumber(records)} records): the guarantee sets no bound for {unprotected.length === 1 ? 'it' : 'them'}, and their
            records may be published in buckets that show the value exactly. {draft.mode === 'coefficient' ? 'A smaller coefficient c' : 'A β below 1'} protects {unprotected.length === 1 ? 'it' : 'them'}.
          </Callout>
        );
      })()}
      <fieldset className="options">
        <legend>Buckets</legend>
        <SelectField
          label="Algorithm"
          value={draft.algorithm}
          options={[
            { value: 'multi-size', label: 'Multi-size buckets (least information loss)' },
            { value: 'two-size', label: 'Two bucket sizes' },
            { value: 'anatomy', label: 'Anatomy (ℓ-diversity baseline)' },
          ]}
          onChange={(algorithm) => set({ algorithm })}
        />
        <NumberField label="Largest bucket" direction={{ neither: 'Neither: larger buckets admit a smaller β (set above) but blur more.' }} min={1} max={5000} step={1} value={draft.maxBucket} onChange={(maxBucket) => set({ maxBucket })} error={problems['maxBucket']} help="Larger buckets admit stricter β but blur more. A value needs buckets of at least ⌈1/β⌉ records." />
        <NumberField label="Fake values per bucket" direction={{ stricter: 'larger' }} min={0} max={20} step={1} value={draft.fakeValues} onChange={(fakeValues) => set({ fakeValues })} error={problems['fakeValues']} help="Protects against an adversary who already knows other people in the bucket (corruption attack), at some cost in accuracy." />
      </fieldset>
      <fieldset className="options">
        <legend>Domain of the sensitive column (the values of the β table and of the fake values)</legend>
        <DomainFields columns={context.sensitive.map((c) => c.name)} texts={draft.domains} file={context.file} set={(domains) => set({ domains })} problems={problems} what="Fake values are drawn from this list, and a value no record holds is listed with its β." />
      </fieldset>
    </>
  );
}

function dataProblems(draft: BetaPrivacyDraft, context: Parameters<BrowserMechanism<BetaPrivacySpec, BetaPrivacyDraft>['dataProblems']>[1]): Problems {
  const column = context.sensitive[0];
  if (!column) return {};
  const domain = domainProblems(draft.domains, context);
  if (column.top.length < column.distinct) return { ...domain, beta: `“${column.name}” has too many distinct values for the β table` };
  const infeasible = betaRows(draft, column, context.file.rows).filter((r) => r.problem);
  return { ...domain, ...(infeasible.length ? { beta: `${infeasible.length === 1 ? '1 value needs' : `${infeasible.length} values need`} a larger β: ${infeasible.map((r) => `“${r.value}”`).join(', ')}` } : {}) };
}

export const betaPrivacyBrowser: BrowserMechanism<BetaPrivacySpec, BetaPrivacyDraft> = {
  definition: betaPrivacy,
  sensitive: betaPrivacy.metadata.sensitiveColumns,
  recodes: false,
  tableLevels: null,
  latticeChoice: null,
  fromMethod: (m) => ({
    mode: 'coefficient' in m.beta ? 'coefficient' : 'values',
    coefficient: 'coefficient' in m.beta ? Number(m.beta.coefficient) : START_COEFFICIENT,
    defaultBeta: 'default' in m.beta ? String(m.beta.default) : START_DEFAULT_BETA,
    overrides: named(Object.entries('values' in m.beta ? m.beta.values : {}).map(([value, beta]): [string, string] => [value, String(beta)])),
    algorithm: m.algorithm,
    maxBucket: m.maxBucket,
    fakeValues: m.fakeValues,
    domains: textsOf(m.domains),
  }),
  toMethod: (d, context) => ({
    type: 'beta-privacy',
    beta: d.mode === 'coefficient' ? { coefficient: d.coefficient } : { default: d.defaultBeta, values: named(Object.entries(d.overrides).filter(([, v]) => v.trim() !== '')) },
    algorithm: d.algorithm,
    maxBucket: d.maxBucket,
    fakeValues: d.fakeValues,
    ...domainsOf(d.domains, sensitiveNames(d.domains, context.roles)),
  }),
  // A method states one form of β: the other form's settings (the per-value thresholds beside a coefficient) stay as typed.
  carryOver: (previous, next) =>
    next.mode === 'coefficient' ? { ...next, defaultBeta: previous.defaultBeta, overrides: previous.overrides } : { ...next, coefficient: previous.coefficient },
  fieldOf: (path) => (path[0] === 'beta' && path[1] === 'coefficient' ? 'coefficient' : path[0] === 'beta' ? 'beta' : path[0] === 'domains' && path.length > 1 ? `domain.${String(path[1])}` : String(path[0] ?? '')),
  dataProblems,
  Form,
};
