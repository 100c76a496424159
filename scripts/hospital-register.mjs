/**
 * The hospital discharge register of issue 34, made from a fixed generator so every run writes the
 * same file: patient id, name, birth date, sex, postcode with leading zeros, municipality, ICD-10
 * diagnosis, length of stay and a free-text comment. Used by test/review/hospital-register.test.ts;
 * `node scripts/hospital-register.mjs OUT.csv [RECORDS]` writes it for a try by hand.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const FIRST = ['Marie', 'Jean', 'Fatima', 'Lukas', 'Sofia', 'Ahmed', 'Émilie', 'Louis', 'Ana', 'Olivier', 'Chloé', 'Mohamed', 'Camille', 'Hugo', 'Léa', 'Nora'];
const LAST = ['Dupont', 'Martin', 'Bernard', 'Garcia', 'Nguyen', 'Rossi', 'Petit', 'Lefèvre', 'Moreau', 'Laurent', 'Simon', 'Michel', 'Roux', 'Fournier'];
/** Postcodes of the Ain and the Aisne (01…, 02…): the leading zero is part of the value. */
const PLACES = [['01000', 'Bourg-en-Bresse'], ['01100', 'Oyonnax'], ['01200', 'Bellegarde'], ['01300', 'Belley'], ['01400', 'Châtillon'], ['02000', 'Laon'], ['02100', 'Saint-Quentin'], ['02200', 'Soissons'], ['02300', 'Chauny'], ['02400', 'Château-Thierry']];
const DIAGNOSES = ['I21.9', 'J18.9', 'K35.8', 'S72.0', 'E11.9', 'I50.9', 'N39.0', 'C34.9', 'F32.9', 'B20'];
const NOTES = ['patient reports pain since Monday after a fall at home', 'daughter called the ambulance, follow-up needed with the GP', 'Suspicion VIH — confidentiel, do not share with the family', 'allergy to penicillin noted, treatment changed on day two', 'lives alone, social worker contacted before discharge', 'readmitted after the previous stay, wound care at home', 'transferred from the emergency unit during the night shift', 'refused the second examination, discharged against advice'];

/** A fixed linear congruential generator: the register is the same on every machine. */
function generator(seed) {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
}

const quote = (v) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** The register's rows, the header first, every value as text. */
export function hospitalRegisterRows(records = 400, seed = 34) {
  const next = generator(seed);
  const pick = (list) => list[next(list.length)];
  const rows = [['patient_id', 'name', 'birth_date', 'sex', 'postcode', 'municipality', 'diagnosis', 'length_of_stay', 'comment']];
  for (let i = 0; i < records; i++) {
    const [postcode, municipality] = pick(PLACES);
    const birth = `${1930 + next(70)}-${String(1 + next(12)).padStart(2, '0')}-${String(1 + next(28)).padStart(2, '0')}`;
    // Each comment its own: a note, the ward and the day, as clinicians write them.
    const comment = `${pick(NOTES)} (ward ${1 + next(9)}, day ${1 + next(30)})`;
    rows.push([`P${String(100000 + i * 7 + next(7)).padStart(7, '0')}`, `${pick(FIRST)} ${pick(LAST)}`, birth, pick(['F', 'M']), postcode, municipality, pick(DIAGNOSES), String(1 + next(21)), comment]);
  }
  return rows;
}

/** The register as CSV text (header and `records` rows). */
export function hospitalRegister(records = 400, seed = 34) {
  return hospitalRegisterRows(records, seed).map((r) => r.map(quote).join(',')).join('\n') + '\n';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: node scripts/hospital-register.mjs OUT.csv [RECORDS]\n');
    process.exit(2);
  }
  writeFileSync(out, hospitalRegister(Number(process.argv[3] ?? 400)));
}
