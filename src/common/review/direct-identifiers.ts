/**
 * Direct identifiers in a column, found from its values and its name: the kinds of HIPAA's Safe
 * Harbor list (45 CFR 164.514(b)(2)) that a statistical file can carry — names, e-mail addresses,
 * telephone numbers, national identity and account numbers, web and IP addresses, all elements of
 * dates but the year (a full date, and a year and month too), postal codes finer than their first
 * three characters — and free text, which can hold any of them. Each finding carries its reason in words a custodian can check.
 *
 * The values speak first: a pattern must hold for most of the values seen (MAJORITY), so one odd
 * value does not flag a column and a column called "email_sent" holding yes/no is not flagged. A
 * name alone flags only the kinds whose values have no pattern of their own (a person's name).
 */

export type DirectIdentifierKind = 'e-mail' | 'telephone' | 'national-id' | 'person-name' | 'web-or-ip-address' | 'full-date' | 'year-month' | 'full-postcode' | 'free-text';

export interface DirectIdentifierFinding {
  readonly kind: DirectIdentifierKind;
  readonly reason: string;
}

/** What the detectors see of a column: its name, its type as read, and some of its distinct values. */
export interface ColumnSample {
  readonly name: string;
  readonly label?: string;
  readonly type: string;
  /** Distinct values among the records that have one. */
  readonly distinct: number;
  /** Records with a value. */
  readonly present: number;
  /** Distinct values seen (any order; the more the better, a few hundred is plenty). */
  readonly values: readonly string[];
}

/** Share of the values seen that must match a pattern for the column to be of that kind. */
const MAJORITY = 0.6;

const EMAIL = /^[^@\s<>()[\],;:"]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}$/i;
/**
 * A telephone number as written: international (+ or 00) or trunk-prefixed (0) or bracketed, or the
 * North American 555-123-4567; 7 to 15 digits (E.164) in all. Numbers typed as numbers never are.
 */
const PHONE = /^(?:\+|00|0|\()[\d\s.()/-]{6,}$|^\d{3}[\s.-]\d{3}[\s.-]\d{4}$/;
const URL = /^(?:https?:\/\/|www\.)\S+$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;

/** National identity numbers whose form is distinctive enough to recognise without a name. */
const NATIONAL_IDS: readonly (readonly [string, RegExp])[] = [
  ['a US Social Security number (999-99-9999)', /^\d{3}-\d{2}-\d{4}$/],
  ['a French NIR (sex digit, year, month, department, …: 13 or 15 digits)', /^[12]\s?\d{2}\s?(?:0[1-9]|1[0-2]|[2-9]\d)\s?(?:\d{2}|2[AB])\s?\d{3}\s?\d{3}(?:\s?\d{2})?$/],
  ['a UK National Insurance number (AB123456C)', /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]$/i],
  ['an IBAN', /^[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}\s?[A-Z0-9]{1,4}$/],
  ['a Swedish or Danish personal number (YYMMDD-NNNN)', /^\d{6}[-+]\d{4}$/],
];

const NAME_COLUMN = /(^|[_\s-])(first.?name|last.?name|given.?name|family.?name|sur.?name|full.?name|name|nom|prenom|prénom|vorname|nachname|nombre|apellidos?)($|[_\s-])/i;
const BIRTH_COLUMN = /(birth|dob|born|naissance|geburt|nacimiento)/i;
const POSTCODE_COLUMN = /(zip|post.?code|postal|plz|code.?postal|cap$)/i;
const NATIONAL_ID_COLUMN = /(^|[_\s-])(ssn|nin|nino|nir|national.?id|social.?security|passport|tax.?id|personnummer|cpr|bsn|steuer.?id|insee)($|[_\s-])/i;

/** A person's name as a register writes it: two to four capitalised words (particles and hyphens allowed). */
const PERSON_NAME = /^(?:[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+)?|[A-ZÀ-ÖØ-Þ]\.|de|van|von|der|da|di|le|la|del|du)(?:[\s,]+(?:[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ'’]+)?|[A-ZÀ-ÖØ-Þ]\.|de|van|von|der|da|di|le|la|del|du)){1,3}$/;

/** A date with its day: ISO, day-first or month-first with any of the usual separators, or yyyymmdd. */
const FULL_DATE = /^(?:\d{4}-\d{2}-\d{2}(?:[T\s]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?|\d{1,2}[./-]\d{1,2}[./-]\d{4}|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))$/;

/**
 * A year and month without the day ("2024-03", "2024/03", "03/2024", "03.2024"; the date hierarchy's
 * first level writes "2024-03"). Coarser than a full date but finer than the year, the only element
 * of a date Safe Harbor keeps.
 */
const YEAR_MONTH = /^(?:(?:1[89]|20)\d{2}[-/.](?:0[1-9]|1[0-2])|(?:0?[1-9]|1[0-2])[-/.](?:1[89]|20)\d{2})$/;

/**
 * A full postcode as nations write them: 4 to 6 digits (Austria, Switzerland, Denmark, Norway: 4;
 * the United States, France, Germany, Italy, Spain: 5; India, Russia, China: 6), the US ZIP+4, and
 * the alphanumeric forms of the United Kingdom, Canada and the Netherlands. Only whole codes: a value
 * recoded or suppressed in part ("0123*", "01***", "SW1A") is coarser and is not one.
 */
const FULL_POSTCODES: readonly RegExp[] = [
  /^\d{4,6}$/,
  /^\d{5}-\d{4}$/,
  /^[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}$/i,
  /^[A-Z]\d[A-Z]\s?\d[A-Z]\d$/i,
  /^\d{4}\s?[A-Z]{2}$/i,
];

function share(values: readonly string[], test: (value: string) => boolean): number {
  if (values.length === 0) return 0;
  let n = 0;
  for (const v of values) if (test(v.trim())) n++;
  return n / values.length;
}

function percent(x: number): string {
  return `${Math.round(100 * x)} %`;
}

/** Free text: values of several words, most of them different, long on average. */
function freeText(column: ColumnSample): string | undefined {
  const values = column.values.filter((v) => v.trim() !== '');
  if (values.length < 5) return undefined;
  const words = values.reduce((sum, v) => sum + v.trim().split(/\s+/).length, 0) / values.length;
  const length = values.reduce((sum, v) => sum + v.length, 0) / values.length;
  const distinctShare = column.present === 0 ? 0 : column.distinct / column.present;
  // Long text (several words) that most records write their own way: short notes ("Suspicion VIH —
  // confidentiel") identify and disclose as much as long ones.
  if ((words >= 4 && length >= 25 && distinctShare >= 0.3) || (words >= 3 && length >= 20 && distinctShare >= 0.5)) {
    return `free text: on average ${words.toFixed(1)} words and ${Math.round(length)} characters per value, ${percent(distinctShare)} of the records with a value of their own (text can name people, places and diagnoses)`;
  }
  return undefined;
}

/** The direct identifiers a column holds, each with its reason; empty when none is found. */
export function directIdentifiers(column: ColumnSample): DirectIdentifierFinding[] {
  const found: DirectIdentifierFinding[] = [];
  const values = column.values.filter((v) => v.trim() !== '');
  const title = `${column.name} ${column.label ?? ''}`;
  const of = (x: number): string => `${percent(x)} of the ${values.length.toLocaleString('en-US')} values seen`;

  const emails = share(values, (v) => EMAIL.test(v));
  if (emails >= MAJORITY) found.push({ kind: 'e-mail', reason: `${of(emails)} are e-mail addresses` });

  const urls = share(values, (v) => URL.test(v) || IPV4.test(v));
  if (urls >= MAJORITY) found.push({ kind: 'web-or-ip-address', reason: `${of(urls)} are web or IP addresses` });

  for (const [what, pattern] of NATIONAL_IDS) {
    const ids = share(values, (v) => pattern.test(v));
    if (ids >= MAJORITY) {
      found.push({ kind: 'national-id', reason: `${of(ids)} have the form of ${what}` });
      break;
    }
  }
  if (!found.some((f) => f.kind === 'national-id') && NATIONAL_ID_COLUMN.test(title) && column.distinct >= 0.5 * column.present && column.present > 0) {
    found.push({ kind: 'national-id', reason: `the name says identity number and ${percent(column.distinct / column.present)} of the records have a value of their own` });
  }

  const digits = (v: string): number => v.match(/\d/g)?.length ?? 0;
  const phones = column.type === 'integer' || column.type === 'decimal' ? 0 : share(values, (v) => PHONE.test(v) && !FULL_DATE.test(v) && digits(v) >= 7 && digits(v) <= 15);
  if (phones >= MAJORITY && !found.some((f) => f.kind === 'national-id')) {
    found.push({ kind: 'telephone', reason: `${of(phones)} are written like telephone numbers` });
  }

  const names = share(values, (v) => PERSON_NAME.test(v));
  const nameColumn = NAME_COLUMN.test(title);
  const distinctShare = column.present === 0 ? 0 : column.distinct / column.present;
  if ((names >= MAJORITY && (nameColumn || distinctShare >= 0.5)) || (nameColumn && names >= 0.3)) {
    found.push({ kind: 'person-name', reason: nameColumn ? `the name says a person's name and ${of(names)} are written like names` : `${of(names)} are written like people's names and ${percent(distinctShare)} of the records have one of their own` });
  }

  const birth = BIRTH_COLUMN.test(title);
  const dates = column.type === 'date' || column.type === 'datetime' ? 1 : share(values, (v) => FULL_DATE.test(v));
  if (dates >= MAJORITY && values.some((v) => FULL_DATE.test(v.trim()))) {
    found.push({ kind: 'full-date', reason: `${birth ? 'full dates of birth' : 'full dates'} (day, month and year): Safe Harbor releases the year only` });
  } else {
    // A number such as 2024.03 is a measurement, not a month.
    const months = column.type === 'integer' || column.type === 'decimal' ? 0 : share(values, (v) => YEAR_MONTH.test(v));
    if (months >= MAJORITY) {
      found.push({ kind: 'year-month', reason: `${birth ? 'years and months of birth' : 'years and months'} (${of(months)} are a year and month without the day): coarser than a full date, but Safe Harbor releases the year only` });
    }
  }

  if (POSTCODE_COLUMN.test(title)) {
    const codes = share(values, (v) => FULL_POSTCODES.some((pattern) => pattern.test(v)));
    if (codes >= MAJORITY) found.push({ kind: 'full-postcode', reason: `full postcodes (${of(codes)} are whole codes of a national form, 4 to 6 digits or the UK, Canadian or Dutch form): Safe Harbor keeps the first three characters at most` });
  }

  const text = freeText(column);
  if (text && !found.some((f) => f.kind === 'person-name')) found.push({ kind: 'free-text', reason: text });
  return found;
}
