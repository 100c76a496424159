import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadJobFile } from '../../src/jobs/load-job.js';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { assessJob } from '../../src/jobs/run-job.js';

const DEMO = resolve('resources/demo');

describe('the example jobs shipped in resources/demo', () => {
  const files = readdirSync(DEMO).filter((f) => f.endsWith('.json'));

  it('are all there and valid', () => {
    expect(files).toEqual(expect.arrayContaining(['adult-job.json', 'adult-beta-job.json', 'adult-search-job.json']));
    for (const file of files) expect(() => loadJobFile(join(DEMO, file)), file).not.toThrow();
  });

  it('each assesses on the shipped data with a guarantee that holds', () => {
    for (const file of files) {
      const report = assessJob(loadJobFile(join(DEMO, file)), { random: new SeededTestRandomSource(5) });
      expect(report.guarantee.holds, file).toBe(true);
    }
  });
});
