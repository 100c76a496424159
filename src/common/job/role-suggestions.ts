import type { ColumnInfo } from '../ipc/api.js';
import type { Role } from './job-parts.js';
import { directIdentifiers } from '../review/direct-identifiers.js';
import type { HierarchySpec } from '../recoding/hierarchy-spec.js';
import { formatCount } from '../format/numbers.js';

export interface RoleSuggestion {
  readonly role: Role;
  readonly reason: string;
  /**
   * A quasi-identifier Safe Harbor asks to coarsen before release (a full date or a year and month to
   * the year, a full postcode to its first three characters): what to recode it to, and the hierarchy
   * that does it when one of the job's own kinds fits the values (absent: a hierarchy file must).
   */
  readonly recode?: { readonly to: string; readonly hierarchy?: HierarchySpec };
}

const IDENTIFIER_NAME = /(^|[_\s-])(id|ssn|nin|name|first.?name|last.?name|surname|e-?mail|phone|address|passport|record.?no|patient.?no)($|[_\s-])/i;
const SENSITIVE_NAME = /(diagnos|disease|illness|health|hiv|income|salary|wage|occupation|religio|ethnic|sexual|criminal|convict|drug)/i;

const QUASI_NAME = /(zip|postcode|post.?code|postal|birth|dob|born|municipal|district|county|region|age|sex|gender)/i;

/** Share of the records with a value of their own above which a column identifies records. */
const NEAR_UNIQUE = 0.95;

/**
 * A role suggestion the user sees with its reason and applies or ignores. The
 * wizard starts a column suggested as an identifier dropped (the safe side,
 * said on the Columns step); every other suggestion waits for the user. The
 * data speak first: a column where almost every record has its own value
 * points at a person whatever it is called.
 */
export function suggestRole(column: ColumnInfo, rows: number): RoleSuggestion | undefined {
  const present = rows - column.missing;
  const nearUnique = present > 20 && column.distinct >= NEAR_UNIQUE * present;
  // What the values are comes before what the column is called: e-mail addresses, names and free
  // text are removed whatever their column's name; a full date or postcode is a fact others know,
  // kept as a quasi-identifier with the recoding Safe Harbor asks for.
  // A column summary without its values (a state restored from an older draft) is judged by its name.
  const values = (column.top as typeof column.top | undefined)?.map((t) => t.value) ?? [];
  const sample = { name: column.name, ...(column.label !== undefined ? { label: column.label } : {}), type: column.type, distinct: column.distinct, present, values };
  const [finding] = directIdentifiers(sample);
  if (finding?.kind === 'full-date') {
    // The date hierarchy reads ISO dates; the run makes dates typed as text ISO dates for it.
    return { role: 'quasi', reason: `${finding.reason}; recode to the year or coarser (a date hierarchy, at level 2 or above)`, recode: { to: 'the year or coarser', hierarchy: { type: 'date' } } };
  }
  if (finding?.kind === 'year-month') return { role: 'quasi', reason: `${finding.reason}; recode to the year or coarser (a hierarchy file: value, year)`, recode: { to: 'the year or coarser' } };
  if (finding?.kind === 'full-postcode') {
    const length = codeLength(values);
    return { role: 'quasi', reason: `${finding.reason}; recode to the first three characters or coarser (${length ? `a masking hierarchy, at level ${length - 3} or above` : 'a hierarchy file'})`, recode: { to: 'the first three characters or coarser', ...(length ? { hierarchy: { type: 'masking', length } } : {}) } };
  }
  if (finding) return { role: 'identifier', reason: `${finding.reason}: a direct identifier, removed from the release` };
  if (IDENTIFIER_NAME.test(column.name)) return { role: 'identifier', reason: 'the name looks like a direct identifier' };
  if (nearUnique && column.type === 'date') {
    return { role: 'quasi', reason: `${Math.round((100 * column.distinct) / present)}% of the records have a date of their own (a date of birth or of an event identifies people in combination)` };
  }
  // Near-unique text or whole numbers are record numbers and names; near-unique decimals are measurements.
  if (nearUnique && (column.type === 'text' || column.type === 'integer')) return { role: 'identifier', reason: `almost every record has its own value (${formatCount(column.distinct)} values in ${formatCount(present)} records)` };
  if (SENSITIVE_NAME.test(column.name)) return { role: 'sensitive', reason: 'the name suggests confidential content' };
  if (column.type === 'date') return { role: 'quasi', reason: 'dates (of birth, of events) are facts others can know' };
  if (looksLikeCodes(column)) return { role: 'quasi', reason: 'fixed-length codes with leading zeros, like ZIP or area codes, locate people' };
  if (QUASI_NAME.test(column.name)) return { role: 'quasi', reason: 'the name suggests a fact others can know (place, birth, age, sex)' };
  return undefined;
}

/** The length of codes all of one length (digits and letters, at least 4), for a masking hierarchy; else undefined. */
function codeLength(values: readonly string[]): number | undefined {
  const length = values[0]?.length ?? 0;
  return length >= 4 && values.every((v) => v.length === length && /^[A-Z0-9]+$/i.test(v)) ? length : undefined;
}

/** Text codes of one length made of digits, some with a leading zero: postal, area or municipality codes. */
function looksLikeCodes(column: ColumnInfo): boolean {
  if (column.type !== 'text' || column.top.length === 0) return false;
  const length = column.top[0]!.value.length;
  return length >= 3 && column.top.every((t) => t.value.length === length && /^\d+$/.test(t.value)) && column.top.some((t) => t.value.startsWith('0'));
}
