/**
 * Custos's side of issue 36's done-when on Adult (occupation sensitive, the 8 quasi-identifiers, 0 %,
 * Loss): the transformations its search evaluates for entropy ℓ-diversity and t-closeness, with the
 * optimum and the time, beside ARX 3.9.2's checked transformations (bench/arx-harness/CheckedTransformations.java).
 * Usage: npx esbuild bench/search-models.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/bench/search-models.mjs && node dist/bench/search-models.mjs
 */
import { resolve } from 'node:path';
import { tableHierarchy } from '../src/common/recoding/hierarchy.js';
import { readHierarchyRows } from '../src/io/input/hierarchy-reader.js';
import { readTable } from '../src/io/input/read-table.js';
import { quasiColumn, sensitiveColumn } from '../src/common/recoding/search/recoding-input.js';
import { optimalRecoding } from '../src/common/recoding/search/search.js';
import type { PrivacyModel } from '../src/common/recoding/search/models.js';

const QUASI = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'];
const hierarchy = (name: string) => tableHierarchy(readHierarchyRows(resolve(`resources/adult/adult_hierarchy_${name}.csv`)));
const { table } = readTable(resolve('resources/adult/adult.csv'), { delimiter: ';', missing: ['', '?'], onBadRow: 'error' });
const columns = QUASI.map((name) => quasiColumn(table.columns.find((c) => c.name === name)!, hierarchy(name)));
const occupation = table.columns.find((c) => c.name === 'occupation')!;
const settings: [string, PrivacyModel[], boolean][] = [
  ['entropy 3-diversity', [{ type: 'entropy-l-diversity', l: 3 }], false],
  ['entropy 5-diversity', [{ type: 'entropy-l-diversity', l: 5 }], false],
  ['0.2-closeness (equal)', [{ type: 't-closeness', t: 0.2, distance: 'equal' }], false],
  ['0.2-closeness (hierarchical) and 5-anonymity', [{ type: 't-closeness', t: 0.2, distance: 'hierarchical' }, { type: 'k-anonymity', k: 5 }], true],
];
for (const [name, models, hierarchical] of settings) {
  const started = performance.now();
  const result = optimalRecoding({ columns, sensitive: sensitiveColumn(occupation, hierarchical ? hierarchy('occupation') : undefined), rowCount: table.rowCount, models, suppressionLimit: 0, measure: 'loss' });
  console.log(JSON.stringify({ name, evaluated: result.evaluated, levels: result.optimum?.node, loss: result.optimum?.measure, ms: Math.round(performance.now() - started) }));
}
