/**
 * `custos init FILE --method IDENTITY,ATTRIBUTE`: a chain's job skeleton that parses and runs, the
 * identity step recoding the quasi-identifiers (hierarchies for dates and postcodes, bands for whole
 * numbers), the attribute step protecting the one sensitive column; unsound pairs refused as usage
 * problems (exit 2) with the chain's own reason.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/common/report/report-model.js';
import { custos, register } from './chain-job.js';

describe('custos init --method A,B', () => {
  it('writes a chain job that assesses and runs; its review holds back the full postcode its note names, and the job runs publishable once the postcode is left out', () => {
    const dir = register(null);
    const init = custos(dir, 'init', 'register.csv', '--method', 'global-recoding,beta-privacy');
    expect(init.status, init.stderr).toBe(0);
    const job = JSON.parse(init.stdout) as { _help: string[]; attributes: Record<string, string>; method: Record<string, unknown>[] };
    expect(job.method.map((m) => m['type'])).toEqual(['global-recoding', 'beta-privacy']);
    expect(job.attributes['diagnosis']).toBe('sensitive');
    expect(job.method[0]!['hierarchies']).toMatchObject({ birth_date: { type: 'date' }, postcode: { type: 'masking' }, length_of_stay: { type: 'interval', widths: [5, 10, 20] } });
    expect(job._help[0]).toMatch(/with a chain of two methods, written by custos init: Optimal global recoding protects identity on the quasi-identifiers, then β-privacy bucketization protects the sensitive value/);
    expect(job._help.some((line) => line.startsWith('RECODE birth_date, postcode: method.hierarchies has a hierarchy for each'))).toBe(true);
    expect(job._help.some((line) => line.startsWith('BANDS length_of_stay'))).toBe(true);
    // The attribute method alone would ask for the quasi-identifiers to be recoded first: in a chain the identity step does it.
    expect(job._help.some((line) => /releases the quasi-identifiers as they are/.test(line))).toBe(false);
    writeFileSync(join(dir, 'job.json'), init.stdout);

    const assess = custos(dir, 'assess', 'job.json', '--json');
    expect(assess.status, assess.stderr).toBe(0);
    const preview = JSON.parse(assess.stdout) as Report;
    expect(preview.chain!.steps.map((s) => s.type)).toEqual(['global-recoding', 'beta-privacy']);
    expect(preview.risk.minClassSize).toBeGreaterThanOrEqual(5);

    // The search keeps the postcode whole where that costs least: the review refuses it (exit 4), as the RECODE note says.
    const run = custos(dir, 'run', 'job.json');
    expect(run.status, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/direct-identifiers: postcode: full-postcode/);

    // The custodian's fix: the municipality says where, the postcode is left out.
    const fixed = JSON.parse(readFileSync(join(dir, 'job.json'), 'utf8')) as typeof job;
    fixed.attributes['postcode'] = 'identifier';
    delete (fixed.method[0]!['hierarchies'] as Record<string, unknown>)['postcode'];
    writeFileSync(join(dir, 'job.json'), JSON.stringify(fixed));
    const again = custos(dir, 'run', 'job.json');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/wrote the release \(publishable: the disclosure review passed\)/);
  });

  it.each([
    ['beta-privacy,global-recoding', /--method beta-privacy,global-recoding: beta-privacy protects a sensitive attribute and comes first/],
    ['global-recoding,dp-counts', /--method global-recoding,dp-counts: dp-counts after global-recoding: dp-counts is differentially private, but global-recoding chose its recoding by looking at the data/],
    ['global-recoding,beta-privacy,beta-privacy', /a chain has two steps/],
    ['global-recoding,betaprivacy', /--method: .*did you mean/i],
  ])('refuses --method %s (exit 2)', (method, message) => {
    const dir = register(null);
    const r = custos(dir, 'init', 'register.csv', '--method', method);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});
