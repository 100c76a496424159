/**
 * One timing of the Adult searches as a user waits for them, in a fresh process: read the
 * CSV and ARX's hierarchies, build the lattice input, search. Usage (after scripts/build-cli.mjs):
 *   npx esbuild bench/global-recoding-adult.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/bench/global-recoding-adult.mjs
 *   node dist/bench/global-recoding-adult.mjs 0.05 [k]
 * ARX 3.9 on this project's machine (from the issue): 1.4 s load, then 30 ms (0 %) / 490 ms (5 %) for k = 5.
 */
import { resolve } from 'node:path';
import { tableHierarchy } from '../src/common/recoding/hierarchy.js';
import { readHierarchyRows } from '../src/io/input/hierarchy-reader.js';
import { readTable } from '../src/io/input/read-table.js';
import { quasiColumn } from '../src/common/recoding/search/recoding-input.js';
import { optimalRecoding } from '../src/common/recoding/search/search.js';

const QUASI = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'];
const limit = Number(process.argv[2] ?? '0');
const k = Number(process.argv[3] ?? '5');
const t0 = performance.now();
const { table } = readTable(resolve('resources/adult/adult.csv'), { delimiter: ';', missing: ['', '?'], onBadRow: 'error' });
const columns = QUASI.map((name) => quasiColumn(table.columns.find((c) => c.name === name)!, tableHierarchy(readHierarchyRows(resolve(`resources/adult/adult_hierarchy_${name}.csv`)))));
const t1 = performance.now();
const result = optimalRecoding({ columns, rowCount: table.rowCount, models: [{ type: 'k-anonymity', k }], suppressionLimit: limit, measure: 'loss' });
const t2 = performance.now();
console.log(JSON.stringify({ k, limit, records: table.rowCount, loadMs: Math.round(t1 - t0), searchMs: Math.round(t2 - t1), totalMs: Math.round(t2 - t0), levels: Object.fromEntries(QUASI.map((q, j) => [q, result.optimum?.node[j]])), loss: result.optimum?.measure, suppressed: result.optimum?.suppressedRecords, evaluated: result.evaluated }));
