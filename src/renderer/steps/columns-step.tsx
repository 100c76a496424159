import type { ColumnInfo, OpenedFile } from '../../common/ipc/api.js';
import { describeFormats, NOT_A_DATE, type DateFormat, type DateReading } from '../../common/table/date-text.js';
import { own, withName } from '../../common/job/names.js';
import { Callout, SelectField } from '../components/fields.js';
import { Sparkline } from '../components/charts.js';
import { formatNumber } from '../../common/format/numbers.js';
import { suggestRole } from '../../common/job/role-suggestions.js';
import type { Action, Role, WizardState } from '../state/wizard-state.js';

const ROLES: readonly { value: Role; label: string }[] = [
  { value: 'identifier', label: 'Identifier (dropped)' },
  { value: 'quasi', label: 'Quasi-identifier' },
  { value: 'sensitive', label: 'Sensitive' },
  { value: 'insensitive', label: 'Insensitive' },
];

/**
 * How a column's dates are read, for its Type cell: the format found (or "keep as typed"), the
 * order of day and month when the values leave it open. Only formats every value fits are offered:
 * a value that fits no offered format is for the file (or the missing-value codes) to settle.
 */
function DateChoice(props: { column: ColumnInfo; chosen: DateReading | undefined; onChange: (reading: DateReading | '') => void }) {
  const { column, chosen } = props;
  const date = column.date;
  const offered: readonly DateFormat[] = date?.reading === 'ambiguous' ? (date.formats as DateFormat[]) : date?.reading === 'read' ? [date.format as DateFormat] : [];
  const value = chosen ?? (date?.reading === 'read' ? date.format! : '');
  return (
    <select aria-label={`Date format of ${column.name}`} value={value} onChange={(e) => props.onChange(e.target.value as DateReading | '')}>
      {(value === '' || chosen === NOT_A_DATE) && <option value="">{date?.reading === 'ambiguous' ? 'day or month first?' : 'read as dates where every value is one'}</option>}
      {offered.map((f) => (
        <option key={f} value={f}>
          {`dates written ${f}${date?.reading === 'read' && !date.stated ? ' (found in the values)' : ''}`}
        </option>
      ))}
      <option value={NOT_A_DATE}>not dates: keep as typed</option>
    </select>
  );
}

function lineOf(u: { value: string; line: number }): string {
  return `“${u.value}”${u.line > 0 ? ` (line ${u.line})` : ''}`;
}

export function ColumnsStep(props: { file: OpenedFile; state: WizardState; dispatch: (a: Action) => void }) {
  const { file, state, dispatch } = props;
  const suggestions = file.columns.map((c) => ({ column: c, suggestion: suggestRole(c, file.rows) }));
  const pending = suggestions.filter((s) => s.suggestion && state.roles[s.column.name] !== s.suggestion.role);
  const sensitive = file.columns.filter((c) => state.roles[c.name] === 'sensitive');
  const withMissing = sensitive.filter((c) => c.missing > 0);
  const dropped = suggestions.filter((s) => s.suggestion?.role === 'identifier' && state.roles[s.column.name] === 'identifier');
  const recoded = suggestions.filter((s) => s.suggestion?.recode && (state.roles[s.column.name] ?? 'quasi') === 'quasi');
  const chosenDates = state.fileOptions.dates;
  const ambiguous = file.columns.filter((c) => c.date?.reading === 'ambiguous' && own(chosenDates, c.name) === undefined);
  const partial = file.columns.filter((c) => c.date?.reading === 'partial' && own(chosenDates, c.name) === undefined);
  const chooseDates = (column: string, reading: DateReading | ''): void => {
    const rest = Object.entries(chosenDates).filter(([name]) => name !== column);
    dispatch({ type: 'setFileOptions', options: { dates: reading === '' ? Object.fromEntries(rest) : withName(Object.fromEntries(rest), column, reading) } });
  };
  return (
    <>
      <p className="lead">
        Say what each column is. <strong>Identifiers</strong> (names, record numbers) are dropped. <strong>Quasi-identifiers</strong> are
        facts an adversary may know (age, sex, region). <strong>Sensitive</strong> columns are what the release protects.{' '}
        <strong>Insensitive</strong> columns are released as they are. Uniform perturbation and reconstruction privacy still count them among
        what an adversary may know; the recoding methods and microaggregation form their classes on the quasi-identifiers only, so mark any
        column an adversary could know as a quasi-identifier.
      </p>
      {dropped.length > 0 && (
        <Callout tone="info" title={`${dropped.length === 1 ? '1 column looks' : `${dropped.length} columns look`} like a direct identifier and ${dropped.length === 1 ? 'is' : 'are'} dropped:`}>
          {dropped.map((d) => `“${d.column.name}” (${d.suggestion!.reason})`).join('; ')}. Choose another role to release {dropped.length === 1 ? 'it' : 'them'}.
        </Callout>
      )}
      {recoded.length > 0 && (
        <Callout tone="warn" title={`Recode ${recoded.map((r) => `“${r.column.name}”`).join(', ')} before release:`}>
          {recoded.map((r) => `“${r.column.name}” to ${r.suggestion!.recode!.to} (${r.suggestion!.reason})`).join('; ')}. A method that recodes (global recoding) does it with a
          hierarchy on the Method step; the disclosure review fails while a released value is finer.
        </Callout>
      )}
      {ambiguous.length > 0 && (
        <Callout tone="error" title={`Say how the dates of ${ambiguous.map((c) => `“${c.name}”`).join(', ')} are written.`}>
          No day in them is above 12, so each can be read day first or month first ({describeFormats((ambiguous[0]!.date!.formats ?? []) as DateFormat[])}). Choose the order in the Type column; the run cannot start before.
        </Callout>
      )}
      {partial.map((c) => (
        <Callout key={`dates-${c.name}`} tone="warn" title={`“${c.name}” looks like dates written ${c.date!.format}, but ${c.date!.count === 1 ? '1 value is' : `${formatNumber(c.date!.count ?? 0)} values are`} not:`}>
          {(c.date!.unmatched ?? []).map(lineOf).join(', ')}
          {(c.date!.count ?? 0) > (c.date!.unmatched?.length ?? 0) ? ', …' : ''}. It is read as text. Correct {c.date!.count === 1 ? 'it' : 'them'} in the file, or add {c.date!.count === 1 ? 'it' : 'them'} to the missing-value codes on the Open step, before giving
          the column a date hierarchy.
        </Callout>
      ))}
      {pending.length > 0 && (
        <Callout tone="info" title={`${pending.length} suggestion${pending.length === 1 ? '' : 's'}.`}>
          <button
            type="button"
            className="link"
            onClick={() => dispatch({ type: 'setRoles', roles: Object.fromEntries(pending.map((p) => [p.column.name, p.suggestion!.role])) })}
          >
            Apply all suggestions
          </button>{' '}
          — nothing changes until you apply them.
        </Callout>
      )}
      <table className="grid columns-table">
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">Type</th>
            <th scope="col" className="n">Distinct</th>
            <th scope="col" className="n">Missing</th>
            <th scope="col">Distribution</th>
            <th scope="col">Role</th>
            <th scope="col">Suggestion</th>
          </tr>
        </thead>
        <tbody>
          {suggestions.map(({ column, suggestion }) => (
            <tr key={column.name}>
              <th scope="row">
                {column.name}
                {column.label && <span className="column-label">{column.label}</span>}
              </th>
              <td>
                {column.type}
                {((column.date && column.date.reading !== 'partial') || own(chosenDates, column.name) !== undefined) && (
                  <div>
                    <DateChoice column={column} chosen={own(chosenDates, column.name)} onChange={(reading) => chooseDates(column.name, reading)} />
                  </div>
                )}
              </td>
              <td className="n">{formatNumber(column.distinct)}</td>
              <td className="n">{formatNumber(column.missing)}</td>
              <td>
                <Sparkline counts={column.top.map((t) => t.count)} label={`Most frequent values of ${column.name}: ${column.top.slice(0, 3).map((t) => `${t.value} (${formatNumber(t.count)})`).join(', ')}`} />
              </td>
              <td>
                <select aria-label={`Role of ${column.name}`} value={state.roles[column.name] ?? 'quasi'} onChange={(e) => dispatch({ type: 'setRole', column: column.name, role: e.target.value as Role })}>
                  {ROLES.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.label}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                {suggestion && state.roles[column.name] !== suggestion.role ? (
                  <button type="button" className="chip" onClick={() => dispatch({ type: 'setRole', column: column.name, role: suggestion.role })} title={suggestion.reason}>
                    {suggestion.role}? <span className="muted">({suggestion.reason})</span>
                  </button>
                ) : suggestion ? (
                  <span className="muted">{suggestion.reason}</span>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {sensitive.length === 0 && <Callout tone="warn">Mark at least one column as sensitive: it is what the protection is about.</Callout>}
      {withMissing.length > 0 && (
        <Callout tone={state.missingSensitive === 'error' ? 'error' : 'warn'} title={`${withMissing.map((c) => `“${c.name}” has ${formatNumber(c.missing)} missing ${c.missing === 1 ? 'value' : 'values'}`).join('; ')}.`}>
          <SelectField
            label="Missing sensitive values"
            value={state.missingSensitive}
            options={[
              { value: 'category', label: 'a value of their own, “(missing)”, protected like the others' },
              { value: 'exclude', label: 'left out: those records are not released (their number goes into the internal report)' },
              { value: 'error', label: 'stop: I will fill them in first' },
            ]}
            onChange={(missingSensitive) => dispatch({ type: 'setMissingSensitive', missingSensitive })}
          />
        </Callout>
      )}
    </>
  );
}
