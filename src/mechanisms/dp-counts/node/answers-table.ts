import type { ReleaseColumn, ReleaseTable } from '../../../io/output/release-table.js';
import type { AnswerPlan } from './answers.js';

/**
 * What a queried column shows in an answer that does not restrict it: a label none of its printed
 * cells has, so a count over every value never reads as a count of the empty (missing) value.
 * Only the printed cells are avoided: avoiding every value of the input would tell, by "(all 2)",
 * that the input holds "(all)" where the cells are public and the data's values are not.
 */
export function allValuesLabel(printed: Iterable<string>): string {
  const taken = new Set(printed);
  let label = '(all)';
  for (let n = 2; taken.has(label); n++) label = `(all ${n})`;
  return label;
}

/**
 * The released answers: one column per queried attribute (and the part), then
 * the answer, the noise scale and the 95% interval. Correlated answers are
 * printed with six decimals, exact discrete ones as integers.
 */
export function answersTable(answers: AnswerPlan, released: Float64Array, b: number, half: number, decimals: boolean, parts: number): ReleaseTable {
  const { answered, unique, slot, columns } = answers;
  const queried = columns.map((_, i) => i).filter((i) => unique.some((a) => a.query.where.has(i)));
  const out: ReleaseColumn[] = [];
  if (parts > 1) out.push({ name: 'part', dictionary: Array.from({ length: parts }, (_, p) => String(p + 1)), codes: Uint32Array.from(answered, (a) => a.part), via: null, numeric: true });
  for (const c of queried) {
    const column = columns[c]!;
    const all = column.dictionary.length;
    const printed = answered.flatMap((a) => (a.query.where.has(c) ? [column.dictionary[a.query.where.get(c)!]!] : []));
    const dictionary = printed.length < answered.length ? [...column.dictionary, allValuesLabel(printed)] : column.dictionary;
    out.push({ name: column.name, dictionary, codes: Uint32Array.from(answered, (a) => a.query.where.get(c) ?? all), via: null, numeric: column.type !== 'text' });
  }
  const numberColumn = (name: string, values: (i: number) => number): ReleaseColumn => {
    const texts = answered.map((_, i) => {
      const v = values(slot[i]!);
      return decimals ? v.toFixed(6).replace(/\.?0+$/, '') : String(v);
    });
    const dictionary = [...new Set(texts)];
    const index = new Map(dictionary.map((t, k) => [t, k]));
    return { name, dictionary, codes: Uint32Array.from(texts, (t) => index.get(t)!), via: null, numeric: true };
  };
  out.push(numberColumn('answer', (i) => released[i]!));
  out.push(numberColumn('scale', () => b));
  out.push(numberColumn('lower95', (i) => released[i]! - half));
  out.push(numberColumn('upper95', (i) => released[i]! + half));
  return { rowCount: answered.length, columns: out };
}
