import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJob } from '../src/jobs/load-job.js';

const BIN = resolve('bin/custos.mjs');

describe('custos init and dates', () => {
  it('writes the format it finds in each date column into input.dates, and asks (exit 0) where day and month could be either', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-init-dates-'));
    const rows = [
      'born;visit;iso;diagnosis',
      '14.03.1961;01/02/2021;2021-01-05;flu',
      '02.11.1975;03/04/2021;2021-02-06;cold',
      '30.06.1988;05/06/2021;2021-03-07;flu',
      '07.01.1990;07/08/2021;2021-04-08;HIV',
    ];
    writeFileSync(join(dir, 'register.csv'), rows.join('\n') + '\n');
    const init = spawnSync(process.execPath, [BIN, 'init', 'register.csv', '--method', 'beta-privacy'], { encoding: 'utf8', cwd: dir });
    expect(init.status, init.stderr).toBe(0);
    const job = JSON.parse(init.stdout) as { _help: string[]; input: { dates?: Record<string, string>; _help: string } };
    // born: day 14, 30 above 12, so day first; iso needs nothing; visit reads either way.
    expect(job.input.dates).toEqual({ born: 'dd.mm.yyyy' });
    const ask = job._help.find((n) => n.startsWith('ASK: the dates of "visit"'));
    expect(ask).toMatch(/"dd\/mm\/yyyy" \(day first\) or "mm\/dd\/yyyy" \(month first\)/);
    expect(job.input._help).toContain('ASK: the dates of "visit"');
    expect(init.stderr).toContain('ASK: the dates of "visit"');
    // The job as written reads (the notes are notes), and says the format of born.
    expect(parseJob(job, dir).job.input.dates).toEqual({ born: 'dd.mm.yyyy' });
  });

  it('on the e2e register in its three forms: the workbook\'s data sheet after its README, each form\'s date format, and the same roles', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-init-forms-'));
    const jobs = ['register.xlsx', 'register-1252.csv', 'register.sav'].map((file) => {
      copyFileSync(resolve('e2e/fixtures/register', file), join(dir, file));
      const init = spawnSync(process.execPath, [BIN, 'init', file, '--method', 'global-recoding'], { encoding: 'utf8', cwd: dir });
      expect(init.status, init.stderr).toBe(0);
      const job = JSON.parse(init.stdout) as { input: Record<string, unknown>; attributes: Record<string, string>; method: { hierarchies?: Record<string, unknown> } };
      // The job as written reads.
      expect(parseJob(job, dir).job.input.path).toBe(join(dir, file));
      return job;
    });
    const [book, csv, sav] = jobs as [(typeof jobs)[0], (typeof jobs)[0], (typeof jobs)[0]];
    // The README sheet comes first and holds five lines of text: the table is on "persons".
    expect(book.input.sheet).toBe('persons');
    expect(book.input.dates).toEqual({ birth_date: 'dd.mm.yyyy' });
    expect(csv.input).toMatchObject({ delimiter: ';', encoding: 'windows-1252', dates: { birth_date: 'dd/mm/yyyy' } });
    // An SPSS date variable is a date already: no format to state.
    expect(sav.input.dates).toBeUndefined();
    for (const job of jobs) {
      expect(job.attributes).toEqual(book.attributes);
      expect(job.method.hierarchies?.birth_date).toEqual({ type: 'date' });
    }
    expect(book.attributes).toMatchObject({ person_id: 'identifier', name: 'identifier', birth_date: 'quasi', income_class: 'sensitive' });
  });
});
