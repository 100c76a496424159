import { describe, expect, it } from 'vitest';
import { directIdentifiers, type ColumnSample, type DirectIdentifierKind } from '../direct-identifiers.js';

/** A fixed generator, so the corpus is the same on every run. */
function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
}

const next = generator(4242);
const pick = <T,>(list: readonly T[]): T => list[next(list.length)]!;
const digits = (n: number): string => Array.from({ length: n }, () => String(next(10))).join('');
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

const FIRST = ['Marie', 'Jean', 'Fatima', 'Lukas', 'Sofia', 'Ahmed', 'Émilie', 'Jürgen', 'Ana', 'Olivier', 'Chloé', 'Mohamed'];
const LAST = ['Dupont', 'Martin', 'Müller', 'García', 'Nguyen', 'Rossi', 'Van Dijk', 'Lefèvre', 'Öztürk', 'Kowalski', 'Smith', 'Le Gall'];
const WORDS = ['patient', 'reports', 'pain', 'since', 'Monday', 'after', 'fall', 'at', 'home', 'daughter', 'called', 'ambulance', 'follow-up', 'needed', 'confidentiel', 'suspicion', 'VIH', 'allergy', 'to', 'penicillin'];

function column(name: string, type: string, values: readonly string[], present = values.length): ColumnSample {
  return { name, type, distinct: new Set(values).size, present, values: [...new Set(values)] };
}
const many = (n: number, make: () => string): string[] => Array.from({ length: n }, make);

interface Labelled {
  readonly column: ColumnSample;
  readonly expected: DirectIdentifierKind | null;
}

/** Columns of the kinds agencies' registers hold, each labelled by hand with what it is. */
const CORPUS: readonly Labelled[] = [
  { column: column('email', 'text', many(200, () => `${pick(FIRST).toLowerCase()}.${pick(LAST).toLowerCase().replace(/\W/g, '')}${next(100)}@example.org`)), expected: 'e-mail' },
  { column: column('contact', 'text', many(200, () => `user${digits(4)}@mail.co.uk`)), expected: 'e-mail' },
  { column: column('tel', 'text', many(200, () => `+33 ${next(9) + 1} ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`)), expected: 'telephone' },
  { column: column('phone_home', 'text', many(200, () => `0${digits(9)}`)), expected: 'telephone' },
  { column: column('numero', 'text', many(200, () => `(${digits(3)}) ${digits(3)}-${digits(4)}`)), expected: 'telephone' },
  { column: column('ssn', 'text', many(200, () => `${digits(3)}-${digits(2)}-${digits(4)}`)), expected: 'national-id' },
  { column: column('x1', 'text', many(200, () => `${digits(3)}-${digits(2)}-${digits(4)}`)), expected: 'national-id' },
  { column: column('nir', 'text', many(200, () => `${1 + next(2)}${pad(next(100))}${pad(1 + next(12))}${pad(1 + next(95))}${digits(3)}${digits(3)}${digits(2)}`)), expected: 'national-id' },
  { column: column('ni_number', 'text', many(200, () => `AB${digits(6)}C`)), expected: 'national-id' },
  { column: column('account', 'text', many(200, () => `FR76 ${digits(4)} ${digits(4)} ${digits(4)} ${digits(4)} ${digits(4)} ${digits(3)}`)), expected: 'national-id' },
  { column: column('patient_name', 'text', many(200, () => `${pick(FIRST)} ${pick(LAST)}`)), expected: 'person-name' },
  { column: column('nom', 'text', many(200, () => `${pick(LAST)}, ${pick(FIRST)}`)), expected: 'person-name' },
  { column: column('website', 'text', many(200, () => `https://example.org/u/${digits(6)}`)), expected: 'web-or-ip-address' },
  { column: column('client_ip', 'text', many(200, () => `${next(256)}.${next(256)}.${next(256)}.${next(256)}`)), expected: 'web-or-ip-address' },
  { column: column('birth_date', 'text', many(200, () => `${pad(1 + next(28))}.${pad(1 + next(12))}.${1930 + next(80)}`)), expected: 'full-date' },
  { column: column('dob', 'date', many(200, () => `${1930 + next(80)}-${pad(1 + next(12))}-${pad(1 + next(28))}`)), expected: 'full-date' },
  { column: column('admitted', 'text', many(200, () => `${1990 + next(30)}${pad(1 + next(12))}${pad(1 + next(28))}`)), expected: 'full-date' },
  { column: column('postcode', 'text', many(200, () => `0${digits(4)}`)), expected: 'full-postcode' },
  { column: column('zip', 'text', many(200, () => digits(5))), expected: 'full-postcode' },
  { column: column('birth_month', 'text', many(200, () => `${1930 + next(80)}-${pad(1 + next(12))}`)), expected: 'year-month' },
  { column: column('visit_month', 'text', many(60, () => `${2000 + next(25)}-${pad(1 + next(12))}`)), expected: 'year-month' },
  { column: column('admission', 'text', many(100, () => `${pad(1 + next(12))}/${2000 + next(25)}`)), expected: 'year-month' },
  { column: column('postcode_uk', 'text', many(100, () => `${pick(['SW', 'N', 'EC', 'M'])}${1 + next(9)} ${next(10)}${pick(['AB', 'XY', 'QT'])}`)), expected: 'full-postcode' },
  { column: column('zip_plus4', 'text', many(100, () => `${digits(5)}-${digits(4)}`)), expected: 'full-postcode' },
  { column: column('plz', 'integer', many(100, () => String(1000 + next(9000)))), expected: 'full-postcode' },
  { column: column('remarks', 'text', many(200, () => `${pick(['Suspicion VIH', 'chute domicile', 'revoir patient', 'allergie notée'])} ${pick(['confidentiel', 'urgent', 'suivi'])}-${digits(3)}`), 250), expected: 'free-text' },
  { column: column('comment', 'text', many(200, () => many(6 + next(8), () => pick(WORDS)).join(' '))), expected: 'free-text' },
  { column: column('notes', 'text', [...many(150, () => many(5 + next(8), () => pick(WORDS)).join(' ')), 'Suspicion VIH — confidentiel, revoir le patient dans 3 mois']), expected: 'free-text' },
  // Not direct identifiers: the columns a statistical file is made of.
  { column: column('sex', 'text', ['F', 'M']), expected: null },
  { column: column('age', 'integer', many(80, () => String(next(100)))), expected: null },
  { column: column('income', 'decimal', many(200, () => `${1000 + next(9000)}.${digits(4)}`)), expected: null },
  { column: column('salary', 'text', many(200, () => `${next(9)}.${digits(3)}.${digits(3)}`).slice(0, 0).concat(['<=50K', '>50K'])), expected: null },
  { column: column('occupation', 'text', ['Tech-support', 'Craft-repair', 'Other-service', 'Sales', 'Exec-managerial', 'Prof-specialty', 'Handlers-cleaners']), expected: null },
  { column: column('education', 'text', ['High school graduate', 'Some college but no degree', 'Bachelors degree', 'Masters degree', 'Doctorate']), expected: null },
  { column: column('diagnosis', 'text', many(200, () => `${pick(['C', 'J', 'E', 'I', 'F'])}${pad(next(100))}.${next(10)}`)), expected: null },
  { column: column('municipality', 'text', ['Le Havre', 'Saint-Denis', 'La Rochelle', 'Le Mans', 'Rouen', 'Aix-en-Provence', 'Les Sables-d’Olonne', 'Lyon'], 600), expected: null },
  { column: column('length_of_stay', 'integer', many(60, () => String(next(60)))), expected: null },
  { column: column('year_of_birth', 'integer', many(80, () => String(1920 + next(90)))), expected: null },
  { column: column('region_code', 'text', ['01', '02', '03', '11', '24', '27', '28', '32', '44', '52', '53', '75', '76', '84', '93', '94']), expected: null },
  { column: column('email_sent', 'text', ['yes', 'no']), expected: null },
  { column: column('phone_owner', 'text', ['yes', 'no', 'unknown']), expected: null },
  { column: column('name_of_program', 'text', ['Medicare', 'Medicaid', 'None'], 900), expected: null },
  // Recoded or suppressed in part: coarser than a full code (masking's "*", a custodian's "X", a UK outward code).
  { column: column('postcode', 'text', many(200, () => `0${digits(3)}*`)), expected: null },
  { column: column('zip', 'text', many(200, () => `${digits(2)}***`)), expected: null },
  { column: column('postcode_masked', 'text', many(200, () => `0${digits(2)}XX`)), expected: null },
  { column: column('postcode_district', 'text', many(100, () => `${pick(['SW', 'N', 'EC', 'M'])}${1 + next(9)}${pick(['A', 'B', ''])}`)), expected: null },
  { column: column('zip_band', 'text', ['1000-1999', '2000-2999', '3000-3999', '4000-4999', '5000-5999']), expected: null },
  { column: column('birth_year', 'text', many(80, () => String(1920 + next(90)))), expected: null },
  { column: column('birth_decade', 'text', ['1930-1939', '1940-1949', '1950-1959', '1960-1969']), expected: null },
  { column: column('period', 'decimal', many(60, () => `${2000 + next(25)}.${pad(1 + next(12))}`)), expected: null },
  { column: column('quarter', 'text', many(40, () => `${2000 + next(25)}-Q${1 + next(4)}`)), expected: null },
  { column: column('product', 'text', ['Blue cotton shirt', 'Red wool sweater', 'Black leather shoes', 'White linen trousers'], 500), expected: null },
  { column: column('weight_kg', 'decimal', many(200, () => `${40 + next(80)}.${next(10)}`)), expected: null },
];

describe('direct identifiers found from values and names', () => {
  const results = CORPUS.map(({ column: c, expected }) => ({ name: c.name, expected, found: directIdentifiers(c).map((f) => f.kind) }));

  it('finds every labelled direct identifier, with its kind first (recall 1 on the corpus)', () => {
    const missed = results.filter((r) => r.expected !== null && r.found[0] !== r.expected);
    expect(missed).toEqual([]);
  });

  it('flags no column of a statistical file that is not one (precision 1 on the corpus)', () => {
    const wrong = results.filter((r) => r.expected === null && r.found.length > 0);
    expect(wrong).toEqual([]);
  });

  it('gives each finding a reason that names what was seen', () => {
    const [finding] = directIdentifiers(column('email', 'text', ['a@b.org', 'c@d.org', 'e@f.org', 'g@h.org', 'not one']));
    expect(finding?.reason).toBe('80 % of the 5 values seen are e-mail addresses');
    const birth = directIdentifiers(column('date_of_birth', 'text', ['01.02.1950', '03.04.1961', '05.06.1972']));
    expect(birth.map((f) => f.reason)).toEqual(['full dates of birth (day, month and year): Safe Harbor releases the year only']);
    const month = directIdentifiers(column('birth_month', 'text', ['1950-02', '1961-04', '1972-06', '1950-03', '1980-12']));
    expect(month).toEqual([{ kind: 'year-month', reason: 'years and months of birth (100 % of the 5 values seen are a year and month without the day): coarser than a full date, but Safe Harbor releases the year only' }]);
  });

  it('one odd value does not flag a column, and a pattern in a minority of the values does not either', () => {
    expect(directIdentifiers(column('code', 'text', ['A1', 'B2', 'C3', 'D4', 'someone@example.org']))).toEqual([]);
    expect(directIdentifiers(column('mixed', 'text', ['a@b.org', 'c@d.org', 'x', 'y', 'z']))).toEqual([]);
  });
});
