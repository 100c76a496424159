import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAdult } from '../src/mechanisms/global-recoding/test/adult-fixture.js';
import { optimalRecoding } from '../src/common/recoding/search/search.js';
import { ACCEPT_REVIEW } from './accept-review.js';
import { writeAdultDemoJob } from './adult-demo-job.js';

const CLI = resolve('dist/cli/custos.mjs');
const QUASI = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'];

/** The release's rows as objects, from the CSV the run wrote (semicolons in the input, commas out). */
function releasedRows(dir: string): Record<string, string>[] {
  const lines = readFileSync(join(dir, 'release.csv'), 'utf8').trim().split('\r\n');
  const header = lines[0]!.split(',');
  return lines.slice(1).map((line) => Object.fromEntries(line.split(',').map((v, i) => [header[i]!, v])));
}

describe('custos run: optimal global recoding (the Adult demo job)', () => {
  it('chooses the levels, releases classes of at least k, reports method.levels, and verify passes', () => {
    // The demo job with its paths made absolute, written where the release may go.
    const { dir } = writeAdultDemoJob('custos-gr-', {}, {}, { dir: 'out', formats: ['csv'], report: ['json', 'html'] });
    const started = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json', '--test-seed', '3'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
    const elapsed = performance.now() - started;
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    console.log(`custos run (load, search, release, reports) of the demo job: ${elapsed.toFixed(0)} ms; levels ${JSON.stringify(report.method.levels)}; internal ${JSON.stringify(report.method.internal)}`);
    expect(Object.keys(report.method.levels).sort()).toEqual([...QUASI].sort());
    expect(report.guarantee.holds).toBe(true);
    expect(report.guarantee.statement).toMatch(/no differential-privacy guarantee/);
    expect(report.output.suppressed).toBeLessThanOrEqual(Math.floor(0.05 * 30162));
    expect(report.output.rows + report.output.suppressed).toBe(30162);
    expect(report.method.internal.satisfyingTransformations ?? report.method.internal.satisfyingTransformationsAtLeast).toBeGreaterThan(0);

    // Every released class (records sharing their quasi-identifiers) has at least k = 5 records.
    const rows = releasedRows(join(dir, 'out'));
    expect(rows.length).toBe(report.output.rows);
    const classes = new Map<string, number>();
    for (const row of rows) {
      const key = JSON.stringify(QUASI.map((q) => row[q]));
      classes.set(key, (classes.get(key) ?? 0) + 1);
    }
    expect(Math.min(...classes.values())).toBeGreaterThanOrEqual(5);
    expect(classes.size).toBe(report.risk.classes);
    // A column at level l shows level-l values of its hierarchy: age at its chosen level is never a raw age unless level 0.
    if (report.method.levels.age > 0) expect(rows.every((row) => !/^\d+$/.test(row['age']!))).toBe(true);

    // The published report names the levels too, and holds no internal field.
    const external = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(external.method.levels).toEqual(report.method.levels);
    expect(external.method.internal).toBeUndefined();
    expect(external.output.suppressed).toBeUndefined();

    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--accept-test-randomness', '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
    expect(verify.stdout).toMatch(/5-anonymity/);
  });

  it('assess --json gives the chosen levels as method.levels', () => {
    const { dir } = writeAdultDemoJob('custos-gr-', { models: [{ type: 'k-anonymity', k: 5 }, { type: 'l-diversity', l: 3 }] }, { occupation: 'sensitive' }, 'demo');
    const job = JSON.parse(readFileSync(join(dir, 'job.json'), 'utf8'));
    const r = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.method.type).toBe('global-recoding');
    expect(Object.keys(report.method.levels).sort()).toEqual([...QUASI].sort());
    expect(report.guarantee.name).toMatch(/5-anonymity and distinct 3-diversity on occupation/);
    // The preview counts every transformation that meets the models, as a search that evaluates every node counts them.
    const adult = loadAdult();
    const everyNode = optimalRecoding(
      { columns: adult.columns, sensitive: adult.occupation, rowCount: adult.table.rowCount, models: [{ type: 'k-anonymity', k: 5 }, { type: 'distinct-l-diversity', l: 3 }], suppressionLimit: job.method.suppressionLimit, measure: 'loss' },
      { prune: false },
    );
    expect(report.method.internal.satisfyingTransformationsAtLeast).toBeUndefined();
    expect(report.method.internal.satisfyingTransformations).toBe(everyNode.satisfying);
    expect(report.method.internal.evaluatedNodes).toBeLessThan(everyNode.nodes);
  });

  it('a refusal for want of a hierarchy names the quasi-identifiers that have none, in words', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-gr-'));
    const rows = ['age;sex;town;diagnosis', ...Array.from({ length: 12 }, (_, i) => `${20 + i};${i % 2 ? 'F' : 'M'};${['Oslo', 'Lund', 'Bergen', 'Malmö', 'Tromsø', 'Umeå'][i % 6]};${i % 3 ? 'flu' : 'cold'}`)];
    writeFileSync(join(dir, 'people.csv'), rows.join('\n') + '\n');
    const method = { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 3 }], suppressionLimit: 0, hierarchies: { age: { type: 'interval', widths: [10] } } };
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'people.csv' }, attributes: { age: 'quasi', sex: 'quasi', town: 'quasi', diagnosis: 'sensitive' }, method, output: { dir: 'out', formats: ['csv'], report: ['json'] } }));
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('method.models: none of the 3 ways of recoding (each combination of the columns\' hierarchy levels) meets 3-anonymity with at most 0 % of the records suppressed: "sex" and "town" have no hierarchy, so they stay as collected in every one; give them a hierarchy (or the role "identifier" if they are not needed), allow more suppression or relax the model');
    expect(r.stderr).not.toMatch(/lattice|transformation/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('assess of a setting no transformation meets: the preview says so (holds: false) and exits 2 with the refusal run would give', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-gr-'));
    const method = { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 40000 }], hierarchies: { age: { type: 'interval', widths: [10] } } };
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: resolve('resources/adult/adult.csv'), delimiter: ';' }, attributes: { occupation: 'insensitive' }, method, output: { dir: 'out', formats: ['csv'], report: ['json'] } }));
    const r = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/this setting cannot run: method\.models: none of the 3 ways of recoding .*meets 40000-anonymity/);
    const report = JSON.parse(r.stdout);
    expect(report.guarantee.holds).toBe(false);
    expect(report.summary[0]).toMatch(/Nothing can be released: none of the 3 ways of recoding .*meets 40000-anonymity/);
    expect(report.method.internal.satisfyingTransformations).toBe(0);
    // Nothing on the frontier either: no limit to suggest.
    expect(report.cannotRun).toEqual({ key: 'method.models', message: expect.not.stringMatching(/would\)$/) });
  });

  it('assess of a setting that needs more suppression names the smallest limit of the frontier that works', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-gr-'));
    const method = { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 2 }], suppressionLimit: 0, hierarchies: { age: { type: 'interval', widths: [10] } } };
    const attributes = { occupation: 'insensitive', 'native-country': 'insensitive', education: 'insensitive', workclass: 'insensitive' };
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: resolve('resources/adult/adult.csv'), delimiter: ';' }, attributes, method, output: { dir: 'out', formats: ['csv'], report: ['json'] } }));
    const r = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(2);
    const report = JSON.parse(r.stdout);
    const first = report.method.frontier[0];
    expect(first.suppressionLimit).toBeGreaterThan(0);
    expect(report.cannotRun.message).toMatch(new RegExp(`a suppression limit of ${first.suppressionLimit * 100} % would\\)$`));
    // The limit it names does run.
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: resolve('resources/adult/adult.csv'), delimiter: ';' }, attributes, method: { ...method, suppressionLimit: first.suppressionLimit }, output: { dir: 'out', formats: ['csv'], report: ['json'] } }));
    const ok = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).cannotRun).toBeUndefined();
  });

  it('rejects settings no transformation meets, or models without their sensitive column, with exit 2 and nothing written', () => {
    const cases: [Record<string, unknown>, Record<string, string>, RegExp][] = [
      [{ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 40000 }], hierarchies: { age: { type: 'interval', widths: [10] } } }, {}, /none of the \d+ ways of recoding .*meets 40000-anonymity/],
      [{ type: 'global-recoding', models: [{ type: 'l-diversity', l: 2 }] }, {}, /mark at least one column as "sensitive"/],
      [{ type: 'global-recoding', models: [{ type: 'l-diversity', l: 2, variant: 'recursive' }] }, {}, /recursive \(c,ℓ\)-diversity needs c/],
      [{ type: 'global-recoding', models: [] }, {}, /at least one privacy model/],
      [{ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 5 }], suppressionLimit: 1.5 }, {}, /share in \[0, 1\]/],
    ];
    for (const [method, attributes, message] of cases) {
      const dir = mkdtempSync(join(tmpdir(), 'custos-gr-'));
      writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: resolve('resources/adult/adult.csv'), delimiter: ';' }, attributes: { occupation: 'insensitive', ...attributes }, method, output: { dir: 'out', formats: ['csv'], report: ['json'] } }));
      const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
      expect(r.status, JSON.stringify(method) + r.stdout).toBe(2);
      expect(JSON.parse(r.stdout).error.message).toMatch(message);
      expect(readdirSync(dir)).toEqual(['job.json']);
    }
  });
});

/** Records compatible with each released record, "*" matching any value (the definition, pair by pair). */
function wildcardFrequencies(rows: Record<string, string>[], quasi: readonly string[]): number[] {
  // Distinct tuples with their counts keep the pairwise work small.
  const counts = new Map<string, { values: string[]; n: number }>();
  for (const row of rows) {
    const values = quasi.map((q) => row[q]!);
    const key = JSON.stringify(values);
    const entry = counts.get(key);
    if (entry) entry.n++;
    else counts.set(key, { values, n: 1 });
  }
  const tuples = [...counts.values()];
  const fkOf = new Map<string, number>();
  for (const t of tuples) {
    let fk = 0;
    for (const u of tuples) if (t.values.every((v, j) => v === u.values[j] || v === '*' || u.values[j] === '*')) fk += u.n;
    fkOf.set(JSON.stringify(t.values), fk);
  }
  return rows.map((row) => fkOf.get(JSON.stringify(quasi.map((q) => row[q]!)))!);
}

describe('custos run: local suppression and journalist risk on Adult', () => {
  it('suppresses cells so every record is compatible with k, reports them per column, compares with record suppression, and verify passes', () => {
    // 2-anonymity by recoding without record suppression, then local suppression to 5: the cells do what deleted records would.
    // No acknowledgement: the disclosure review reads "*" as a wildcard too, so the release passes it.
    const { dir } = writeAdultDemoJob('custos-gr-ls-', { models: [{ type: 'k-anonymity', k: 2 }], suppressionLimit: 0, localSuppression: { k: 5, importance: [{ column: 'age', weight: 3 }, { column: 'sex', weight: 2 }] } });
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.guarantee.holds).toBe(true);
    expect(report.guarantee.statement).toMatch(/compatibility is not transitive/);
    expect(report.output.suppressed).toBe(0);
    expect(report.output.rows).toBe(30162);
    const identity = report.review.identity[0];
    expect(report.review.verdict).toBe('passed');
    expect(identity.prosecutorHighest).toBeLessThanOrEqual(1 / 5);
    expect(identity.prosecutorHighest).toBe(1 / report.risk.minClassSize);

    const rows = releasedRows(join(dir, 'out'));
    const fk = wildcardFrequencies(rows, QUASI);
    expect(Math.min(...fk)).toBeGreaterThanOrEqual(5);
    expect(report.risk.minClassSize).toBe(Math.min(...fk));
    // Per column, the "*" cells of columns below their top level (where "*" is the hierarchy's own value) are the suppressed cells.
    let cells = 0;
    for (const column of report.anonymity.columns.filter((c: { name: string }) => QUASI.includes(c.name))) {
      if (column.level < column.depth - 1) expect(rows.filter((row) => row[column.name] === '*').length, column.name).toBe(column.suppressedCells);
      cells += column.suppressedCells;
    }
    expect(cells).toBeGreaterThan(0);
    expect(report.method.derived.suppressedCells).toBe(cells);
    // The comparison with record suppression: internal only.
    expect(report.method.internal.recordsRecordSuppressionWouldDelete).toBeGreaterThan(0);
    expect(report.summary.join(' ')).toMatch(/record suppression would have deleted [\d,]+ record\(s\) instead/);
    console.log(`local suppression on Adult after 2-anonymity: ${cells} cells in ${report.method.derived.recordsWithSuppressedCells} records, where record suppression would delete ${report.method.internal.recordsRecordSuppressionWouldDelete} records`);

    const external = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(external.method.derived.suppressedCells).toBe(cells);
    expect(external.method.internal).toBeUndefined();
    expect(JSON.stringify(external)).not.toMatch(/recordsRecordSuppressionWouldDelete|would have deleted/);

    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
    expect(verify.stdout).toMatch(/5-anonymity with wildcards \(local suppression\)/);
  });

  it('a journalist threshold with a population size is held on its bound 1/|class| (the prosecutor threshold\'s levels): no sample unique passes; the population gives estimates only (issue 30)', () => {
    // 30,162 records of 301,620 people: π = 0.1. The estimate π/|class| ≤ 0.2 would pass every sample unique
    // (0.1 / 1); the bound 1/|class| ≤ 0.2 asks for classes of 5, whatever the population.
    const { dir } = writeAdultDemoJob('custos-gr-j-', { models: [{ type: 'maximum-risk', risk: 0.2, attacker: 'journalist', populationSize: 301620 }], suppressionLimit: 0 }, {}, 'demo');
    const job = JSON.parse(readFileSync(join(dir, 'job.json'), 'utf8'));
    const r = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.guarantee.name).toMatch(/highest journalist risk ≤ 0.2 \(on its upper bound 1\/\|class\|; population 301620 for estimates only\)/);
    expect(report.guarantee.holds).toBe(true);
    expect(report.guarantee.formula).toMatch(/journalist risk ≤ 1 \/ \|class\| ≤ r/);
    expect(report.guarantee.statement).toMatch(/A journalist threshold is met on the journalist risk's upper bound: a released class of f records stands for at least f people of the population, so the risk of a person in it is at most 1\/f/);
    expect(report.guarantee.statement).toMatch(/π\/f is the risk if the class stood for its expected f\/π people under uniform sampling, which is not a bound/);
    // The 5-anonymity optimum at 0 % (README's table): the prosecutor threshold's levels.
    expect(QUASI.map((q) => report.method.levels[q])).toEqual([0, 4, 1, 2, 3, 2, 0, 0]);
    const { original, release, population } = report.risk.reidentification;
    expect(release.sampleUniques).toBe(0);
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(5);
    expect(population).toMatch(/sampling fraction π = 0.1: journalistHighest is the bound 1 \/ f/);
    // The highest journalist risk reported is the bound, and it meets the threshold; the estimates are separate.
    expect(release.journalistHighest).toBe(release.prosecutorHighest);
    expect(release.journalistHighest).toBeLessThanOrEqual(0.2);
    expect(release.journalistEstimateHighest).toBeCloseTo(0.1 * release.prosecutorHighest, 12);
    expect(release.journalistEstimateAverage).toBeCloseTo(0.1 * release.prosecutorAverage, 12);
    expect(original.journalistHighest).toBe(1);
    expect(original.journalistEstimateHighest).toBeCloseTo(0.1, 12);
    // Run: the published report may not state π = n/N, nor the estimates (π over class sizes): with N from the job they give n.
    const run = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const published = JSON.parse(readFileSync(join(dir, job.output.dir, 'report.json'), 'utf8'));
    const reid = published.risk.reidentification;
    expect(reid.population).not.toMatch(/0\.1\b|π =/);
    expect(reid.release.journalistEstimateHighest).toBeUndefined();
    expect(reid.release.journalistEstimateAverage).toBeUndefined();
    expect(reid.release.journalistHighest).toBe(reid.release.prosecutorHighest);
    expect(published.guarantee.statement).toBe(report.guarantee.statement);
    const internal = JSON.parse(readFileSync(join(dir, `${job.output.dir}-internal`, 'internal-report.json'), 'utf8'));
    expect(internal.risk.reidentification.population).toMatch(/sampling fraction π = 0.1/);
    // verify re-checks the threshold on the bound from the released file alone, without the internal report's count.
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, job.output.dir)], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
    expect(verify.stdout).toMatch(/ok +highest journalist risk ≤ 0\.2 \(on its upper bound 1\/\|class\|; population 301620 for estimates only\): all \d+ released classes meet it/);
  });
});

describe('verify of a global recoding release', () => {
  it('re-checks every model from the released file, and fails when a class is broken', async () => {
    const { verifyGlobalRecoding } = await import('../src/mechanisms/global-recoding/node/verify.js');
    const { CheckList } = await import('../src/jobs/method-kit/checks.js');
    const { schema } = await import('../src/mechanisms/global-recoding/definition.js');
    const dir = mkdtempSync(join(tmpdir(), 'custos-gr-verify-'));
    const lines = ['age,sex,diagnosis'];
    for (let i = 0; i < 200; i++) lines.push(`${20 + ((i * 7) % 50)},${i % 3 ? 'F' : 'M'},${['flu', 'cold', 'HIV', 'asthma'][(i * 5) % 4]}`);
    writeFileSync(join(dir, 'input.csv'), lines.join('\n') + '\n');
    const method = { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 4 }, { type: 'l-diversity', l: 2, variant: 'entropy' }, { type: 'average-risk', risk: 0.2 }], suppressionLimit: 0.1, hierarchies: { age: { type: 'interval', widths: [5, 10, 20] } } };
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'input.csv' }, attributes: { diagnosis: 'sensitive' }, method, output: { dir: 'out', formats: ['csv'], report: ['json'] }, review: ACCEPT_REVIEW }));
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const out = join(dir, 'out');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const job = JSON.parse(readFileSync(join(out, 'job.json'), 'utf8'));
    const spec = schema.parse(method);
    const check = () => {
      const checks = new CheckList();
      verifyGlobalRecoding({ dir: out, report, job, checks }, spec);
      return checks.checks;
    };
    const passed = check();
    expect(passed.filter((c) => !c.ok)).toEqual([]);
    expect(passed.map((c) => c.name)).toEqual(expect.arrayContaining(['4-anonymity', 'entropy 2-diversity on diagnosis', 'average prosecutor risk ≤ 0.2']));
    // Keep one record of the first class only: it is then below k, and the record count is off.
    const released = readFileSync(join(out, 'release.csv'), 'utf8').trim().split('\r\n');
    const header = released[0]!.split(',');
    const key = (line: string) => header.map((h, i) => (h === 'diagnosis' ? '' : line.split(',')[i])).join('|');
    const first = key(released[1]!);
    const kept = [released[0]!, released[1]!, ...released.slice(2).filter((line) => key(line) !== first)];
    writeFileSync(join(out, 'release.csv'), kept.join('\r\n') + '\r\n');
    const failed = check().filter((c) => !c.ok).map((c) => c.name);
    expect(failed).toEqual(expect.arrayContaining(['record count', '4-anonymity', 'entropy 2-diversity on diagnosis']));
  });

  it('re-checks local suppression with wildcards from the released file, and fails when a suppressed cell is put back', async () => {
    const { verifyGlobalRecoding } = await import('../src/mechanisms/global-recoding/node/verify.js');
    const { CheckList } = await import('../src/jobs/method-kit/checks.js');
    const { schema } = await import('../src/mechanisms/global-recoding/definition.js');
    const dir = mkdtempSync(join(tmpdir(), 'custos-gr-ls-verify-'));
    const lines = ['age,sex,zip'];
    for (let i = 0; i < 120; i++) lines.push(`${20 + ((i * 7) % 40)},${i % 3 ? 'F' : 'M'},${1000 + (i % 4)}`);
    writeFileSync(join(dir, 'input.csv'), lines.join('\n') + '\n');
    const method = { type: 'global-recoding', models: [], localSuppression: { k: 4, importance: [{ column: 'age', weight: 5 }] } };
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'input.csv' }, method, output: { dir: 'out', formats: ['csv'], report: ['json'] }, review: ACCEPT_REVIEW }));
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const out = join(dir, 'out');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const job = JSON.parse(readFileSync(join(out, 'job.json'), 'utf8'));
    const spec = schema.parse(method);
    const check = () => {
      const checks = new CheckList();
      verifyGlobalRecoding({ dir: out, report, job, checks }, spec);
      return checks.checks;
    };
    expect(check().filter((c) => !c.ok)).toEqual([]);
    const released = readFileSync(join(out, 'release.csv'), 'utf8').trim().split('\r\n');
    const header = released[0]!.split(',');
    const rows = released.slice(1).map((line) => Object.fromEntries(line.split(',').map((v, i) => [header[i]!, v])));
    expect(rows.some((row) => Object.values(row).includes('*'))).toBe(true);
    // A record with a suppressed cell given an unseen value in every quasi-identifier: only all-"*" records stay compatible with it.
    const at = rows.findIndex((row) => Object.values(row).includes('*'));
    rows[at] = { age: '999', sex: 'X', zip: '9' };
    expect(wildcardFrequencies(rows, ['age', 'sex', 'zip'])[at]).toBeLessThan(4);
    writeFileSync(join(out, 'release.csv'), [released[0]!, ...rows.map((row) => header.map((h) => row[h]).join(','))].join('\r\n') + '\r\n');
    expect(check().filter((c) => !c.ok).map((c) => c.name)).toEqual(['4-anonymity with wildcards (local suppression)']);
  });

  it('runs β-likeness and δ-disclosure privacy, states them, and verify re-checks them from the release when nothing was suppressed (with the internal report)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-gr-likeness-'));
    const lines = ['age,sex,diagnosis'];
    for (let i = 0; i < 400; i++) lines.push(`${20 + ((i * 7) % 50)},${i % 3 ? 'F' : 'M'},${['flu', 'cold', 'HIV', 'asthma'][(i * 5 + (i % 7 === 0 ? 1 : 0)) % 4]}`);
    writeFileSync(join(dir, 'input.csv'), lines.join('\n') + '\n');
    const models = [{ type: 'k-anonymity', k: 4 }, { type: 'beta-likeness', beta: 0.5 }, { type: 'delta-disclosure', delta: 0.6 }];
    const run = (suppressionLimit: number, out: string) => {
      const method = { type: 'global-recoding', models, suppressionLimit, hierarchies: { age: { type: 'interval', widths: [5, 10, 20, 60] } } };
      writeFileSync(join(dir, `${out}.json`), JSON.stringify({ version: 1, input: { path: 'input.csv' }, attributes: { diagnosis: 'sensitive' }, method, output: { dir: out, formats: ['csv'], report: ['json'] }, review: ACCEPT_REVIEW }));
      const r = spawnSync(process.execPath, [CLI, 'run', join(dir, `${out}.json`), '--json'], { encoding: 'utf8' });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const report = run(0, 'out');
    expect(report.output.suppressed).toBe(0);
    expect(report.guarantee.holds).toBe(true);
    expect(report.method.parameters.models).toBe('4-anonymity and enhanced 0.5-likeness on diagnosis and 0.6-disclosure privacy on diagnosis');
    expect(report.guarantee.formula).toContain('(P_class(v) − P(v)) / P(v) ≤ min(β, −ln P(v))');
    expect(report.guarantee.formula).toContain('|ln(P_class(v) / P(v))| < δ');
    expect(report.guarantee.statement).toContain('at most (1 + min(0.5, −ln P(v))) times as frequent as in the input');
    expect(report.guarantee.statement).toContain('strictly between e^−0.6 and e^0.6 times its share P(v)');
    expect(report.guarantee.source).toContain('Cao, Karras 2012 (β-likeness); Brickell, Shmatikov 2008 (δ-disclosure privacy)');
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--internal', join(dir, 'out-internal'), '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    const checks: { name: string; ok: boolean }[] = JSON.parse(verify.stdout).checks;
    expect(checks.filter((c) => c.name === 'enhanced 0.5-likeness on diagnosis' || c.name === '0.6-disclosure privacy on diagnosis').map((c) => c.ok)).toEqual([true, true]);
    // Without the internal report, the input's distribution is not known: named as not re-checked.
    renameSync(join(dir, 'out-internal'), join(dir, 'kept-apart'));
    const alone = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--json'], { encoding: 'utf8' });
    expect(alone.status, alone.stdout + alone.stderr).toBe(0);
    expect(JSON.parse(alone.stdout).checks.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['enhanced 0.5-likeness on diagnosis (not re-checked)', '0.6-disclosure privacy on diagnosis (not re-checked)']));
  });
});
