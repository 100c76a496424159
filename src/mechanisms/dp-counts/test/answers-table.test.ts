import { describe, expect, it } from 'vitest';
import type { Column } from '../../../common/table/table.js';
import { answersTable, allValuesLabel } from '../node/answers-table.js';
import type { AnswerPlan, Answered } from '../node/answers.js';

const column = (name: string, dictionary: string[]): Column => ({ name, dictionary, codes: new Uint32Array(0), type: 'text', distinct: dictionary.length - 1, missing: 0 }) as unknown as Column;

function plan(columns: Column[], queries: Map<number, number>[]): AnswerPlan {
  const answered: Answered[] = queries.map((where) => ({ query: { where }, label: '', part: 0 }));
  return { columns, answered, unique: answered, slot: answered.map((_, i) => i) } as unknown as AnswerPlan;
}

const cells = (table: ReturnType<typeof answersTable>, name: string): string[] => {
  const c = table.columns.find((col) => col.name === name)!;
  return Array.from(c.codes, (code) => c.dictionary[code]!);
};

describe('answers.csv: a column an answer does not restrict', () => {
  it('reads (all), or (all 2) when a printed cell is (all)', () => {
    expect(allValuesLabel(['x', 'y'])).toBe('(all)');
    expect(allValuesLabel(['(all)', '(all 2)'])).toBe('(all 3)');
    const sex = column('sex', ['', 'Female', '(all)']);
    const named = answersTable(plan([sex, column('age', ['', '30'])], [new Map([[0, 2]]), new Map([[1, 1]])]), new Float64Array([5, 7]), 1, 3, false, 1);
    expect(cells(named, 'sex')).toEqual(['(all)', '(all 2)']);
    expect(cells(named, 'age')).toEqual(['(all)', '30']);
  });

  it('never tells that the input holds a value "(all)" that no answer prints', () => {
    // "(all)" is a value of the input (in the column's dictionary) but no query names it.
    const sex = column('sex', ['', 'Female', '(all)']);
    const table = answersTable(plan([sex, column('age', ['', '30'])], [new Map([[0, 1]]), new Map([[1, 1]])]), new Float64Array([5, 7]), 1, 3, false, 1);
    expect(cells(table, 'sex')).toEqual(['Female', '(all)']);
  });
});
