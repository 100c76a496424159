import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = resolve('bin/custos.mjs');

function custos(args: string[], cwd = process.cwd()): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('the command line as people expect it', () => {
  it('custos --version, help COMMAND and COMMAND --help; an unknown command or topic is a usage error', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(custos(['--version'])).toMatchObject({ code: 0, stdout: `custos ${version}\n` });
    const help = custos(['help', 'run']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^custos run JOB\.json/);
    expect(help.stdout).toMatch(/--internal DIR/);
    expect(custos(['run', '--help']).stdout).toBe(help.stdout);
    expect(custos(['help']).stdout).toMatch(/custos init FILE/);
    expect(custos(['help', 'nope']).code).toBe(2);
    expect(custos(['frobnicate']).code).toBe(2);
  });

  it('custos init writes a job with the suggested roles and the method defaults, notes included, that assess accepts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-init-'));
    copyFileSync('resources/adult/adult.csv', join(dir, 'adult.csv'));
    const init = custos(['init', 'adult.csv', '--missing', ',?', '--method', 'beta-privacy'], dir);
    expect(init.code, init.stderr).toBe(0);
    const job = JSON.parse(init.stdout) as { _help: string[]; input: Record<string, unknown>; attributes: Record<string, string>; method: Record<string, unknown> };
    // Absolute: the job may be saved anywhere, and its paths are relative to where it is saved.
    expect(job.input).toMatchObject({ path: join(dir, 'adult.csv'), delimiter: ';', missing: ['', '?'] });
    expect(job.attributes['occupation']).toBe('sensitive');
    expect(job.attributes['age']).toBe('quasi');
    expect(job.method).toMatchObject({ type: 'beta-privacy', beta: { coefficient: 8 } });
    expect(job._help.join('\n')).toMatch(/occupation: sensitive — the name suggests confidential content/);
    expect(typeof job.method['_help']).toBe('string');
    // β-privacy protects one column: the first suggested stays sensitive, the other is set to quasi and the notes say so.
    expect(job.attributes['salary-class']).toBe('quasi');
    expect(job._help.join('\n')).toMatch(/protects one column: occupation is sensitive; salary-class was also suggested/);
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
    const assess = custos(['assess', 'job.json', '--json'], dir);
    expect(assess.code, assess.stderr).toBe(0);
    expect(JSON.parse(assess.stdout).job.method._help).toBeUndefined();
  });

  it('every method: the job custos init writes is accepted by assess, as written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-init-'));
    copyFileSync('resources/adult/adult.csv', join(dir, 'adult.csv'));
    for (const method of ['uniform-perturbation', 'reconstruction-privacy', 'beta-privacy', 'safe-k-anonymity', 'partitioned-recoding', 'global-recoding', 'microaggregation', 'dp-counts']) {
      const init = custos(['init', 'adult.csv', '--missing', ',?', '--method', method], dir);
      expect(init.code, `${method}: ${init.stderr}`).toBe(0);
      writeFileSync(join(dir, `${method}.json`), init.stdout);
      // The domain is a decision the job shows: declared, with the data's values marked for review.
      const written = JSON.parse(init.stdout) as { _help: string[]; method: { _help: string; domains?: Record<string, unknown> } };
      if (method === 'uniform-perturbation' || method === 'reconstruction-privacy') {
        expect(written.method.domains?.['occupation']).toContain('Prof-specialty');
        expect(written.method._help).toMatch(/REVIEW method\.domains: the values of occupation, salary-class were copied from the confidential file\. A declared domain is treated as public/);
        expect(written._help.join('\n')).toMatch(/REVIEW method\.domains \(occupation, salary-class\)/);
      } else if (method === 'beta-privacy') {
        // One sensitive column: its domain only.
        expect(written.method.domains?.['occupation']).toContain('Prof-specialty');
        expect(Object.keys(written.method.domains ?? {})).toEqual(['occupation']);
        expect(written.method._help).toMatch(/REVIEW method\.domains: the values of occupation were copied from the confidential file\./);
      } else if (method === 'dp-counts') {
        expect(written.method.domains?.['sex']).toEqual(['Female', 'Male']);
      } else expect(written.method.domains).toBeUndefined();
      // Saved in another folder: the input's path still resolves.
      const assess = custos(['assess', join(dir, `${method}.json`)], tmpdir());
      if (method === 'global-recoding') {
        // Accepted, and assessed; without hierarchies (init cannot know them) no recoding meets 5-anonymity, which assess says as run would.
        expect(assess.stdout).toMatch(/Optimal global recoding — assessment/);
        expect(assess.code, `${method}: ${assess.stderr}`).toBe(2);
        expect(assess.stderr).toMatch(/cannot run: .*the only way of recoding there is .* does not meet 5-anonymity.*have no hierarchy.*give them a hierarchy/);
      } else expect(assess.code, `${method}: ${assess.stderr}`).toBe(0);
    }
    // A sensitive column with missing values: the job says how to treat them instead of failing.
    const sav = custos(['init', resolve('test/fixtures/spss/people-bytecode.sav'), '--method', 'uniform-perturbation'], dir);
    expect(JSON.parse(sav.stdout).input.missingSensitive).toBe('category');
    // The value labels cover the column: its domain is the file's labels (metadata), with the category of its missing values.
    expect(JSON.parse(sav.stdout).method.domains.occupation).toEqual(['Managers', 'Professionals', 'Adm-clerical', '(missing)']);
    writeFileSync(join(dir, 'sav.json'), sav.stdout);
    expect(custos(['assess', 'sav.json'], dir).code).toBe(0);
  }, 60_000);

  it('custos init keeps names that are data, and names what it cannot read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-init-'));
    const rows = Array.from({ length: 60 }, (_, i) => `${i % 7},${i % 2 ? 'flu' : 'cold'},${i % 3}`);
    writeFileSync(join(dir, 'odd.csv'), ['__proto__,diagnosis,constructor', ...rows].join('\n') + '\n');
    const init = custos(['init', 'odd.csv'], dir);
    expect(init.code, init.stderr).toBe(0);
    const job = JSON.parse(init.stdout) as { attributes: Record<string, string> };
    expect(Object.keys(job.attributes)).toEqual(['__proto__', 'diagnosis', 'constructor']);
    expect(Object.hasOwn(job.attributes, '__proto__')).toBe(true);
    writeFileSync(join(dir, 'job.json'), init.stdout);
    expect(custos(['assess', 'job.json'], dir).code).toBe(0);
    const missing = custos(['init', 'nothing.csv'], dir);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/nothing\.csv: the file does not exist/);
    expect(custos(['init', 'odd.csv', '--method', 'k-magic'], dir).code).toBe(2);
  });

  it('custos inspect shows what a statistical file says of its variables', () => {
    const text = custos(['inspect', resolve('test/fixtures/spss/people.zsav')]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/occupation +text +3 +1 +Occupation \(ISCO major group\); 3 codes read as labels; 1 declared missing/);
    expect(text.stdout).toMatch(/region .*1 code read as labels/);
    const json = JSON.parse(custos(['inspect', resolve('test/fixtures/spss/people.zsav'), '--json']).stdout) as { variables: { name: string; label?: string }[]; bom?: boolean };
    expect(json.variables.find((v) => v.name === 'age')!.label).toBe('Age in years');
    expect(json.bom).toBeUndefined();
  });

  it('a SAS data set: inspect shows its labels and declared missing values, init writes a job assess accepts', () => {
    const path = resolve('test/fixtures/sas/sas7bdat/people-32-rdc.sas7bdat');
    const text = custos(['inspect', path]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/age +integer +4 +1 +Age in years; 1 declared missing/);
    expect(text.stdout).toMatch(/visit +date/);
    const dir = mkdtempSync(join(tmpdir(), 'custos-init-'));
    const init = custos(['init', path, '--method', 'dp-counts'], dir);
    expect(init.code, init.stderr).toBe(0);
    writeFileSync(join(dir, 'sas.json'), init.stdout);
    const assess = custos(['assess', 'sas.json'], dir);
    expect(assess.code, assess.stderr).toBe(0);
  });
});
