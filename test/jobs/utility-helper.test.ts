import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { uniformInt } from '../../src/common/random/draws.js';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { tableFromRows } from '../../src/common/table/table.js';
import { drawQueryPool, poolRelativeError } from '../../src/common/utility/query-pool.js';
import { startUtilityWork } from '../../src/jobs/method-kit/utility-helper.js';

const WORKER = pathToFileURL(resolve('dist/cli/job-worker.mjs'));

describe('the utility figure on a helper thread', () => {
  it('draws the pool a seeded run would and answers a release as this thread does', () => {
    const random = new SeededTestRandomSource(11);
    const rows = Array.from({ length: 3000 }, () => [`a${uniformInt(random, 4)}`, `b${uniformInt(random, 7)}`, `c${uniformInt(random, 3)}`]);
    const { columns } = tableFromRows(['a', 'b', 'c'], rows);
    const values = Uint32Array.from({ length: 3000 }, () => uniformInt(random, 5));
    const release = { sourceRow: Uint32Array.from({ length: 3100 }, () => uniformInt(random, 3000)), sensitive: [Uint32Array.from({ length: 3100 }, () => uniformInt(random, 5))] };

    const work = startUtilityWork(WORKER, new SeededTestRandomSource(5), columns, values, 5);
    const pool = work.pool();
    const elsewhere = work.relativeErrorElsewhere(release, 0.5)();
    work.close();

    // A seeded run hands the helper a seed from its own generator: the same pool follows from it.
    const seeded = new SeededTestRandomSource(5);
    const expected = drawQueryPool(new SeededTestRandomSource(uniformInt(seeded, 2 ** 32)), columns, values, 5);
    expect(pool).toEqual(expected);
    expect(pool.queries.length).toBeGreaterThan(100);
    expect(elsewhere).toBe(poolRelativeError(expected, columns, release, 0, 0.5, 5));
  });

  it('without a helper script the same work runs here, on the job generator', () => {
    const { columns } = tableFromRows(['a'], Array.from({ length: 500 }, (_, i) => [`v${i % 3}`]));
    const values = Uint32Array.from({ length: 500 }, (_, i) => i % 2);
    const work = startUtilityWork(undefined, new SeededTestRandomSource(9), columns, values, 2);
    expect(work.pool()).toEqual(drawQueryPool(new SeededTestRandomSource(9), columns, values, 2));
  });
});
