/**
 * MDAV's time on Adult's 30,162 records (the figures in src/mechanisms/microaggregation/README.md):
 * age alone, then age with one and two further numeric columns derived from the record number
 * (Adult's ARX sample has one numeric column), for several k. Usage (after scripts/build-cli.mjs):
 *   npx esbuild bench/microaggregation-adult.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/bench/microaggregation-adult.mjs
 *   node dist/bench/microaggregation-adult.mjs [k …]
 * Times grow as n²·p/k; on a loaded machine they vary by a factor of two or more.
 */
import { resolve } from 'node:path';
import { readTable } from '../src/io/input/read-table.js';
import { mdav, standardize } from '../src/mechanisms/microaggregation/mdav.js';
import { numericValues } from '../src/mechanisms/microaggregation/node/run.js';

const ks = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [2, 5, 10];
const { table } = readTable(resolve('resources/adult/adult.csv'), { delimiter: ';', missing: ['', '?'], onBadRow: 'error' });
const n = table.rowCount;
const age = numericValues(table.columns.find((c) => c.name === 'age')!, n);
// Spread-out columns of their own scale, so z-scores matter and distances rarely tie.
const hours = Float64Array.from({ length: n }, (_, r) => 1 + ((r * 7919) % 99));
const income = Float64Array.from({ length: n }, (_, r) => 1000 * ((r * 104729) % 997));
for (const columns of [[age], [age, hours], [age, hours, income]]) {
  for (const k of ks) {
    const started = performance.now();
    const partition = mdav(standardize(columns, n), n, columns.length, k);
    console.log(JSON.stringify({ records: n, columns: columns.length, k, groups: partition.count, ms: Math.round(performance.now() - started) }));
  }
}
