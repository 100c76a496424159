/**
 * A chain's assessment (custos assess, and the app's risk preview through the same request): the
 * identity step's figures of its release, the attribute step's figures on that release, and the
 * disclosure review and risk profile of the final release, as the run would compute them. Nothing
 * is written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/common/report/report-model.js';
import { executeRequest } from '../../src/jobs/execute-request.js';
import { ATTRIBUTES, BETA, custos, RECODING, register } from './chain-job.js';

describe('custos assess of a chain', () => {
  it('reports the composed figures: classes after step 1, β on step 1\'s release, the review of the final release', () => {
    const dir = register([RECODING, BETA]);
    const r = custos(dir, 'assess', 'job.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.kind).toBe('assessment');
    expect(report.chain!.steps.map((s) => s.type)).toEqual(['global-recoding', 'beta-privacy']);
    expect(report.job.method).toHaveLength(2);
    expect(report.guarantee.name).toBe('5-anonymity, at most 0 % suppressed (syntactic, no DP guarantee); then β-privacy within the released groups');
    // Step 1's figures: the recoded classes (birth dates recoded, so not the input's 400 near-uniques).
    expect(report.anonymity!.model).toBe('5-anonymity');
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(5);
    expect(report.method.levels ?? report.anonymity!.columns.find((c) => c.name === 'birth_date')!.level).toBeTruthy();
    // Step 2's figures, of step 1's 400 released records.
    expect(report.beta!.sensitive).toBe('diagnosis');
    expect(Object.entries(report.beta!.chosen.sizes).reduce((n, [size, count]) => n + Number(size) * count, 0)).toBe(400);
    // The review of the final release: QIT's classes, the chain's attacker sentence.
    expect(report.review!.basis).toBe('release');
    expect(report.review!.verdict).toBe('passed');
    expect(report.review!.attacker).toMatch(/^This chain assumes the attacker knows a person's quasi-identifiers/);
    const identity = report.review!.identity[0]!;
    expect(identity.file).toBe('qit.csv');
    expect([identity.classes, 1 / identity.prosecutorHighest]).toEqual([report.risk.classes, report.risk.minClassSize]);
    expect(report.risk.profile!.basis).toBe('release');
    expect(existsSync(join(dir, 'out'))).toBe(false);

    // The same chain's run releases the classes the assessment announced (global recoding is deterministic).
    const run = custos(dir, 'run', 'job.json');
    expect(run.status, run.stderr).toBe(0);
    const released = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    expect([released.risk.classes, released.risk.minClassSize]).toEqual([report.risk.classes, report.risk.minClassSize]);
    expect(released.review!.identity[0]!.prosecutorHighest).toBe(identity.prosecutorHighest);
  });

  it('prints the chain by its steps, and the review of the final release failing on the free text it would carry', () => {
    // The comment kept as an insensitive column: the chain releases it as collected in QIT.
    const dir = register([RECODING, BETA], { ...ATTRIBUTES, comment: 'insensitive' });
    const r = custos(dir, 'assess', 'job.json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Optimal global recoding, then β-privacy bucketization — assessment');
    expect(r.stdout).toMatch(/disclosure review: FAILED/);
    expect(r.stdout).toMatch(/direct-identifiers: comment: free-text/);
    expect(r.stderr).toMatch(/the disclosure review fails: run would write nothing and exit 4/);
  });
});

describe('the app\'s risk preview of a chain (a job object through executeRequest, as the table service sends it)', () => {
  it('assesses the chain as the command line does', async () => {
    const dir = register([RECODING, BETA]);
    const job = { version: 1, input: { path: 'register.csv' }, attributes: ATTRIBUTES, output: { dir: 'out', formats: ['csv'], report: ['json'] }, method: [RECODING, BETA] };
    const { report } = await executeRequest({ command: 'assess', job, baseDir: dir });
    expect(report.chain!.steps.map((s) => s.type)).toEqual(['global-recoding', 'beta-privacy']);
    expect(report.review!.verdict).toBe('passed');
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(5);
  });

  it('a step\'s problem is named by its step\'s key', async () => {
    const dir = register([RECODING, BETA]);
    const job = { version: 1, input: { path: 'register.csv' }, attributes: ATTRIBUTES, output: { dir: 'out' }, method: [RECODING, { ...BETA, beta: { default: '1/100' } }] };
    await expect(executeRequest({ command: 'assess', job, baseDir: dir })).rejects.toMatchObject({ key: expect.stringMatching(/^method\[1\]\.beta/) });
  });
});
