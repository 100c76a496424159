import { it } from 'vitest';
import { loadAdult } from './adult-fixture.js';
import { optimalRecoding, bruteForceRecoding } from '../search.js';
it('explore', () => {
  let t = performance.now();
  const a = loadAdult();
  console.log('load', performance.now() - t, a.table.rowCount);
  for (const limit of [0, 0.05]) {
    const input = { columns: a.columns, sensitive: a.occupation, rowCount: a.table.rowCount, models: [{ type: 'k-anonymity', k: 5 } as const], suppressionLimit: limit, measure: 'loss' as const };
    t = performance.now();
    const r = optimalRecoding(input);
    console.log('pruned', limit, performance.now() - t, JSON.stringify(r));
    t = performance.now();
    const f = optimalRecoding(input, { prune: false });
    console.log('full', limit, performance.now() - t, JSON.stringify(f));
  }
}, 600000);
