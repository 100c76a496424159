/**
 * A chain of an identity method and an attribute method in one job (issue 34 item 3): the composed
 * statement's exact words, the refusals of unsound chains (exit 2, naming the key, before the input is
 * read), and the done-when of the issue on the hospital register: global recoding to k = 5, then
 * β-privacy on the diagnosis, publishable, checked here from the released CSV without Custos's code,
 * verified, and a tampered release failing verify.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainStatement } from '../../src/mechanisms/chain-statement.js';
import { rehashRelease } from '../insider-rehash.js';
import { csvRecords } from '../csv-records.js';
import { ATTRIBUTES, BETA, custos, RECODING, register } from './chain-job.js';

/** A release's CSV (written with CRLF, quotes doubled), read without Custos's reader. */
function readCsv(path: string): { header: string[]; rows: string[][] } {
  const records = csvRecords(readFileSync(path, 'utf8'));
  return { header: records[0]!, rows: records.slice(1) };
}

describe('the composed statement', () => {
  it('says what each step gives, in order, and nothing about the two together beyond the record-keeping that joins them', () => {
    const identity = { title: 'Optimal global recoding', guarantee: { name: '5-anonymity', statement: 'Every class has at least 5 records.', formula: '|class| ≥ 5', source: 'Sweeney 2002' }, summary: ['Recoded.'], warnings: ['W1.'] };
    const attribute = { title: 'β-privacy bucketization', guarantee: { name: 'β-privacy', statement: 'In every bucket the share of v is at most β_v.', formula: 'count_B(v) ≤ ⌊β_v·|B|⌋', source: 'Wang et al.' }, summary: ['Bucketized.'], warnings: ['W2.'] };
    expect(chainStatement(identity, attribute)).toEqual({
      guarantee: {
        name: '5-anonymity; then β-privacy within the released groups',
        statement:
          "Two steps, the second run on the first step's release. Identity, on the quasi-identifiers (Optimal global recoding): Every class has at least 5 records. " +
          'The sensitive value, within the groups the first step released (β-privacy bucketization): In every bucket the share of v is at most β_v. ' +
          "The second step keeps every record the first step released, with its quasi-identifiers as released, and changes only how the sensitive value is published, so the first step's property holds for the quasi-identifiers of this release. " +
          "Each step's statement holds as that step states it; nothing further is claimed for the two together.",
        formula: '(1) |class| ≥ 5; (2) on the release of (1): count_B(v) ≤ ⌊β_v·|B|⌋',
        source: 'Sweeney 2002; Wang et al.',
      },
      summary: ['Two methods in one job: Optimal global recoding protected identity on the quasi-identifiers, then β-privacy bucketization protected the sensitive value of the records it released, within its released groups.', 'Recoded.', 'Bucketized.'],
      warnings: ['W1.', 'W2.'],
    });
  });
});

describe('unsound chains are refused before the input is read: exit 2, the key named', () => {
  // The input does not exist: a refusal after reading it would be exit 3.
  const refused = (method: unknown, attributes?: Record<string, string>) => {
    const r = custos(register(method, attributes, 'no-such-file.csv'), 'run', 'job.json');
    expect(r.status, r.stderr).toBe(2);
    return r.stderr;
  };
  it.each([
    ['more than two steps', [RECODING, BETA, BETA], /method\[2\]: a chain has two steps .* this one has 3/],
    ['one step in a list', [RECODING], /method: a chain lists two methods/],
    ['the attribute step first', [BETA, RECODING], /method\[0\]\.type: beta-privacy protects a sensitive attribute and comes first/],
    ['two identity steps', [RECODING, { type: 'microaggregation', columns: ['length_of_stay'], k: 5 }], /method\[1\]\.type: two identity steps \(global-recoding, then microaggregation\)/],
    ['a DP method after a data-dependent recoding', [RECODING, { type: 'dp-counts', epsilon: 1, queries: [] }], /method\[1\]\.type: dp-counts after global-recoding: dp-counts is differentially private, but global-recoding chose its recoding by looking at the data, and that choice is not private/],
    ['a method that keeps no record count per group', [RECODING, { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 }], /method\[1\]\.type: reconstruction-privacy cannot be a step of a chain: it samples and scales the records of each group/],
    ['a private recoding as the identity step', [{ type: 'safe-k-anonymity', k: 5 }, BETA], /method\[0\]\.type: safe-k-anonymity cannot be a step of a chain/],
  ])('%s', (_what, method, message) => {
    expect(refused(method)).toMatch(message);
  });

  it('an attribute step whose sensitive column the identity step treats as a quasi-identifier', () => {
    expect(refused([RECODING, { ...BETA, sensitive: 'municipality' }])).toMatch(/method\[1\]\.sensitive: names "municipality", whose role is quasi: the identity step treats it as a quasi-identifier and recodes it/);
  });

  it('an identity step that names the sensitive column to change', () => {
    const attributes = { ...ATTRIBUTES, diagnosis: 'insensitive', length_of_stay: 'sensitive' };
    expect(refused([{ type: 'microaggregation', columns: ['length_of_stay'], k: 5 }, { type: 'uniform-perturbation', retention: 0.5 }], attributes)).toMatch(/method\[0\]\.columns\[0\]: names "length_of_stay", a sensitive column/);
  });

  it('an identity step\'s model of the sensitive values within a class, which the second step publishes otherwise', () => {
    expect(refused([{ ...RECODING, models: [{ type: 'k-anonymity', k: 5 }, { type: 'l-diversity', l: 2 }] }, BETA])).toMatch(/method\[0\]\.models\[1\]: ℓ-diversity \(ℓ = 2\) constrains the sensitive values within each class/);
  });

  it('β-likeness and δ-disclosure privacy in the identity step: models of the sensitive values within a class too', () => {
    const models = [{ type: 'k-anonymity', k: 5 }, { type: 'beta-likeness', beta: 1 }, { type: 'delta-disclosure', delta: 1.5 }];
    const message = refused([{ ...RECODING, models }, BETA]);
    expect(message).toMatch(/method\[0\]\.models\[1\]: β-likeness \(β = 1\) constrains the sensitive values within each class/);
    expect(message).toMatch(/method\[0\]\.models\[2\]: δ-disclosure privacy \(δ = 1\.5\) constrains the sensitive values within each class/);
  });

  it('a step\'s own parameter problem is named inside its step', () => {
    expect(refused([{ ...RECODING, models: [{ type: 'k-anonymity', k: 0 }] }, BETA])).toMatch(/method\[0\]\.models\[0\]\.k/);
  });

  it('a step\'s refusal while it runs names the key inside its step (assess and run)', () => {
    const dir = register([{ ...RECODING, models: [{ type: 'k-anonymity', k: 500 }] }, BETA]);
    for (const command of ['assess', 'run']) {
      const r = custos(dir, command, 'job.json');
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/method\[0\]\.models: none of the \d+ ways of recoding .*meets 500-anonymity/);
    }
  });
});

describe('done when (issue 34): the hospital register through global recoding to k = 5, then β-privacy on the diagnosis', () => {
  it('is publishable; every class of the released quasi-identifiers has ≥ 5 records and every bucket is within β, counted from the CSV; verify passes; a tampered release fails', () => {
    const dir = register([RECODING, BETA]);
    const r = custos(dir, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/wrote the release \(publishable: the disclosure review passed\)/);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.review.verdict).toBe('passed');
    expect(report.chain.steps.map((s: { type: string }) => s.type)).toEqual(['global-recoding', 'beta-privacy']);
    expect(report.guarantee.name).toBe('5-anonymity, at most 0 % suppressed (syntactic, no DP guarantee); then β-privacy within the released groups');
    expect(report.job.method.map((m: { type: string }) => m.type)).toEqual(['global-recoding', 'beta-privacy']);

    // The independent check, from the CSV alone: classes on the quasi-identifiers, buckets against β = 3/10.
    const qit = readCsv(join(dir, 'out', 'qit.csv'));
    expect(qit.header).not.toContain('diagnosis');
    for (const gone of ['patient_id', 'name', 'postcode', 'comment']) expect(qit.header).not.toContain(gone);
    const quasi = ['birth_date', 'sex', 'municipality'].map((c) => qit.header.indexOf(c));
    expect(quasi.every((i) => i >= 0)).toBe(true);
    const classes = new Map<string, number>();
    const bucketSize = new Map<string, number>();
    const bucketAt = qit.header.indexOf('bucket');
    for (const row of qit.rows) {
      const key = JSON.stringify(quasi.map((i) => row[i]));
      classes.set(key, (classes.get(key) ?? 0) + 1);
      bucketSize.set(row[bucketAt]!, (bucketSize.get(row[bucketAt]!) ?? 0) + 1);
    }
    expect(qit.rows.length).toBe(400);
    expect(Math.min(...classes.values())).toBeGreaterThanOrEqual(5);
    // The report states the released classes as counted here (the identity step's, kept by the second).
    expect([report.risk.classes, report.risk.minClassSize]).toEqual([classes.size, Math.min(...classes.values())]);
    const st = readCsv(join(dir, 'out', 'st.csv'));
    expect(st.header).toEqual(['bucket', 'diagnosis', 'count']);
    let listed = 0;
    for (const [bucket, , count] of st.rows) {
      const size = bucketSize.get(bucket!)!;
      expect(size).toBeGreaterThan(0);
      // count / size ≤ 3/10, in integers.
      expect(Number(count) * 10).toBeLessThanOrEqual(3 * size);
      listed += Number(count);
    }
    expect(listed).toBe(400);

    const v = custos(dir, 'verify', 'out');
    expect(v.status, v.stdout).toBe(0);
    for (const check of [/ok +chain: global-recoding, then beta-privacy on its release/, /ok +published sentences, the chain/, /ok +5-anonymity: all \d+ released classes meet it/, /ok +β bound of every bucket/, /ok +disclosure review: passed/]) expect(v.stdout).toMatch(check);

    // An insider moves one record to a new municipality in QIT (its own class of 1) and makes every checksum agree again.
    const qitPath = join(dir, 'out', 'qit.csv');
    const lines = readFileSync(qitPath, 'utf8').split('\r\n');
    const cells = lines[1]!.split(',');
    cells[qit.header.indexOf('municipality')] = 'Paris';
    lines[1] = cells.join(',');
    writeFileSync(qitPath, lines.join('\r\n'));
    rehashRelease(join(dir, 'out'), ['qit.csv']);
    const tampered = custos(dir, 'verify', 'out');
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/FAIL +5-anonymity: 1 of \d+ released classes do not meet it/);

    // And the composed statement edited (with every checksum made to agree): its words are not the chain's.
    const fresh = register([RECODING, BETA]);
    expect(custos(fresh, 'run', 'job.json').status).toBe(0);
    const edited = JSON.parse(readFileSync(join(fresh, 'out', 'report.json'), 'utf8'));
    edited.guarantee.statement = edited.guarantee.statement.replace('at least 5', 'at least 50');
    edited.chain.steps[0].guarantee.statement = edited.chain.steps[0].guarantee.statement.replace('k-anonymity', 'k-anonymity and more');
    writeFileSync(join(fresh, 'out', 'report.json'), JSON.stringify(edited, null, 2) + '\n');
    rehashRelease(join(fresh, 'out'), ['report.json']);
    const words = custos(fresh, 'verify', 'out');
    expect(words.status).toBe(1);
    expect(words.stdout).toMatch(/FAIL +published sentences, step 1 \(global-recoding\)/);
  });
});
