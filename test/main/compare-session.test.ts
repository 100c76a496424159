import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { testSession } from './test-session.js';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppSession } from '../../src/main/session.js';
import { IPC_CHANNELS } from '../../src/common/ipc/ipc-contract.js';
import { GrantedAccess } from '../../src/main/path-access.js';
import type { CompareStatus } from '../../src/common/ipc/compare-api.js';
import type { RunStatus } from '../../src/common/ipc/api.js';
import { COMPARISON_SCHEMA } from '../../src/common/compare/comparison.js';
import { CONFIDENTIAL_MARK } from '../../src/common/report/report-model.js';
import { ACCEPT_REVIEW } from '../accept-review.js';

const XLSX = createRequire(import.meta.url)('xlsx') as typeof import('xlsx');

const ADULT_DIR = resolve('resources/adult');
const ADULT = join(ADULT_DIR, 'adult.csv');

const session = testSession();

const job = (method: Record<string, unknown>, outDir = 'release'): Record<string, unknown> => ({
  version: 1,
  input: { path: ADULT, delimiter: ';', missing: ['', '?'] },
  attributes: { occupation: 'sensitive', 'salary-class': 'insensitive' },
  method,
  output: { dir: outDir, formats: ['csv'], report: ['html'] },
});

const CANDIDATES = [
  { label: 'randomized response, retention 0.3', job: job({ type: 'uniform-perturbation', retention: 0.3, domains: { occupation: 'from-data' } }), grid: [{ key: 'retention', value: '0.3' }] },
  { label: 'randomized response, retention 0.7', job: job({ type: 'uniform-perturbation', retention: 0.7, domains: { occupation: 'from-data' } }), grid: [{ key: 'retention', value: '0.7' }] },
  { label: 'β-privacy, β 1/4', job: job({ type: 'beta-privacy', beta: { default: '1/4', values: { 'Prof-specialty': 0.3, 'Armed-Forces': 0.5 } }, fakeValues: 1, domains: { occupation: 'from-data' } }), grid: [] },
];

async function until<T extends { state: string }>(poll: () => Promise<T>): Promise<T> {
  for (;;) {
    const status = await poll();
    if (status.state !== 'running') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every file under a folder, by relative path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

describe('the Compare step on the host', () => {
  it('refuses malformed candidates before anything runs', async () => {
    await expect(session.dispatch(IPC_CHANNELS.startCompare, { candidates: [] })).rejects.toThrow(/candidates/);
    await expect(session.dispatch(IPC_CHANNELS.startCompare, { candidates: [{ label: 'x', job: {}, grid: [], extra: 1 }] })).rejects.toThrow(/Unrecognized key/);
    await expect(session.dispatch(IPC_CHANNELS.startRun, { job: {}, outDir: 'x', comparisonId: 'not-a-uuid' })).rejects.toThrow(/comparisonId/);
  });

  it('reports a candidate the job schema refuses by its label and key', async () => {
    const started = (await session.dispatch(IPC_CHANNELS.startCompare, { candidates: [{ label: 'bad one', job: job({ type: 'uniform-perturbation', retention: 7, domains: { occupation: 'from-data' } }), grid: [] }] })) as { ok: true; value: { id: string } };
    const status = await until(() => session.dispatch(IPC_CHANNELS.compareStatus, { id: started.value.id }) as Promise<CompareStatus>);
    expect(status.state).toBe('failed');
    expect(status.failure?.message).toMatch(/candidate bad one/);
    expect(status.failure?.key).toBe('method.retention');
  });

  it('compares job objects, exports the table, and puts the comparison into the internal folder of the run, never the release', async () => {
    const started = (await session.dispatch(IPC_CHANNELS.startCompare, { candidates: CANDIDATES })) as { ok: true; value: { id: string } };
    expect(started.ok).toBe(true);
    const status = await until(() => session.dispatch(IPC_CHANNELS.compareStatus, { id: started.value.id }) as Promise<CompareStatus>);
    expect(status.failure).toBeUndefined();
    const comparison = status.comparison!;
    expect(comparison.schema).toBe(COMPARISON_SCHEMA);
    expect(comparison.candidates.map((c) => c.label)).toEqual(CANDIDATES.map((c) => c.label));
    expect(comparison.candidates.some((c) => c.frontier)).toBe(true);
    // More retention exposes more records: the comparison measured each candidate, not one of them three times.
    expect(comparison.candidates[1]!.risk.share).toBeGreaterThan(comparison.candidates[0]!.risk.share);

    const dir = mkdtempSync(join(tmpdir(), 'custos-compare-session-'));
    try {
      const csv = (await session.dispatch(IPC_CHANNELS.exportComparison, { id: started.value.id, path: join(dir, 'comparison.csv') })) as { ok: boolean };
      expect(csv.ok).toBe(true);
      expect(readFileSync(join(dir, 'comparison.csv'), 'utf8').split('\r\n')[0]).toContain(CONFIDENTIAL_MARK.slice(0, 20));

      const outDir = join(dir, 'release');
      // Every rendering of the internal report: the comparison goes into each.
      const chosen = { ...CANDIDATES[0]!.job, output: { dir: 'release', formats: ['csv', 'xlsx'], report: ['html', 'pdf', 'json'] }, review: ACCEPT_REVIEW };
      const run = (await session.dispatch(IPC_CHANNELS.startRun, { job: chosen, outDir, comparisonId: started.value.id })) as { ok: true; value: { id: string } };
      const done = await until(() => session.dispatch(IPC_CHANNELS.runStatus, { id: run.value.id }) as Promise<RunStatus>);
      expect(done.failure).toBeUndefined();
      const internal = `${outDir}-internal`;
      const internalFiles = filesUnder(internal);
      expect(internalFiles).toEqual(expect.arrayContaining(['comparison.json', 'comparison.html', 'comparison.csv']));
      expect(JSON.parse(readFileSync(join(internal, 'comparison.json'), 'utf8'))).toMatchObject({ schema: COMPARISON_SCHEMA, candidates: expect.any(Array) });
      expect(readFileSync(join(internal, 'comparison.html'), 'utf8')).toContain(CONFIDENTIAL_MARK);
      expect(readFileSync(join(internal, 'manifest.json'), 'utf8')).toContain('comparison.json');
      // The internal report itself names the section and says that the choice used the data; the published report does not.
      const internalReport = readFileSync(join(internal, 'internal-report.json'), 'utf8');
      expect(internalReport).toMatch(/chosen on the Compare step among 3 candidates/);
      expect(readFileSync(join(outDir, 'report.json'), 'utf8')).not.toMatch(/Compare step/);
      // Its own section of the internal HTML report, marked confidential; the published HTML report has none.
      const internalHtml = readFileSync(join(internal, 'internal-report.html'), 'utf8');
      expect(internalHtml).toMatch(/<h2 id="comparison-heading">Comparison the setting was chosen from \(confidential\)<\/h2>\s*<div class="confidential">/);
      expect(internalHtml).toContain('randomized response, retention 0.7');
      expect(readFileSync(join(outDir, 'report.html'), 'utf8')).not.toMatch(/comparison-heading|retention 0\.7/);
      // The PDF and the workbook of the internal report carry the same table.
      const pdfText = spawnSync('pdftotext', ['-enc', 'UTF-8', join(internal, 'internal-report.pdf'), '-'], { encoding: 'utf8' });
      if (!pdfText.error) {
        expect(pdfText.stdout).toMatch(/Comparison the setting was chosen from \(confidential\)/);
        expect(pdfText.stdout).toContain('retention 0.7');
      } else if (process.env.CI) throw new Error('pdftotext is needed to read the PDF (CI installs poppler-utils)');
      const book = XLSX.read(readFileSync(join(internal, 'internal-report.xlsx')));
      const sheet = XLSX.utils.sheet_to_json<string[]>(book.Sheets['Comparison']!, { header: 1 });
      expect(sheet[0]![0]).toBe(CONFIDENTIAL_MARK);
      expect(sheet.some((row) => row.includes('randomized response, retention 0.7'))).toBe(true);
      expect(readFileSync(join(outDir, 'report.pdf')).includes('retention 0.7')).toBe(false);
      // The release holds nothing of it: no file, and no file that names a candidate or the schema.
      const releaseFiles = filesUnder(outDir);
      // Nor can the table be exported into it: that would publish it with the release.
      const intoRelease = (await session.dispatch(IPC_CHANNELS.exportComparison, { id: started.value.id, path: join(outDir, 'comparison.csv') })) as { ok: false; failure: { kind: string; message: string } };
      expect(intoRelease).toMatchObject({ ok: false, failure: { kind: 'job' } });
      expect(intoRelease.failure.message).toContain(`inside ${outDir}, a release folder Custos wrote`);
      expect(filesUnder(outDir)).toEqual(releaseFiles);
      expect(releaseFiles.some((f) => f.startsWith('comparison'))).toBe(false);
      for (const f of releaseFiles.filter((name) => name !== 'release.csv')) {
        const text = readFileSync(join(outDir, f), 'utf8');
        expect(text, f).not.toContain(COMPARISON_SCHEMA);
        expect(text, f).not.toContain('β-privacy, β 1/4');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('cancels a comparison: it ends as cancelled, with no figures', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ label: `rr ${i}`, job: job({ type: 'uniform-perturbation', retention: 0.05 + i * 0.07, domains: { occupation: 'from-data' } }), grid: [] }));
    const started = (await session.dispatch(IPC_CHANNELS.startCompare, { candidates: many })) as { ok: true; value: { id: string } };
    await session.dispatch(IPC_CHANNELS.cancelCompare, { id: started.value.id });
    const status = (await session.dispatch(IPC_CHANNELS.compareStatus, { id: started.value.id })) as CompareStatus;
    expect(status.state).toBe('cancelled');
    expect(status.comparison).toBeUndefined();
    // A cancelled comparison cannot go with a run.
    const refused = (await session.dispatch(IPC_CHANNELS.startRun, { job: many[0]!.job, outDir: join(tmpdir(), 'never-written-cancelled'), comparisonId: started.value.id })) as { ok: boolean };
    expect(refused.ok).toBe(false);
  });

  it('on the desktop, exports only where the person may write, and never over a file Custos did not write', async () => {
    const access = new GrantedAccess();
    access.grantFile(ADULT);
    const desktop = new AppSession({
      info: { version: 'test', host: 'electron', samplePath: ADULT, sampleName: 'Adult' },
      workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
      baseDir: process.cwd(),
      access,
      chooseFile: async () => null,
      chooseFolder: async () => null,
      revealFolder: async () => undefined,
    });
    try {
      const started = (await desktop.dispatch(IPC_CHANNELS.startCompare, { candidates: CANDIDATES.slice(0, 1) })) as { ok: true; value: { id: string } };
      await until(() => desktop.dispatch(IPC_CHANNELS.compareStatus, { id: started.value.id }) as Promise<CompareStatus>);
      const elsewhere = (await desktop.dispatch(IPC_CHANNELS.exportComparison, { id: started.value.id, path: join(tmpdir(), 'custos-not-granted', 'c.csv') })) as { ok: false; failure: { message: string } };
      expect(elsewhere.failure.message).toMatch(/only into a folder you chose/);
      const dir = mkdtempSync(join(tmpdir(), 'custos-compare-granted-'));
      access.grantFolder(dir);
      try {
        await expect(desktop.dispatch(IPC_CHANNELS.exportComparison, { id: started.value.id, path: join(dir, 'c.csv') })).resolves.toMatchObject({ ok: true });
        const theirs = join(dir, 'theirs.csv');
        writeFileSync(theirs, 'a,b\r\n');
        const refused = (await desktop.dispatch(IPC_CHANNELS.exportComparison, { id: started.value.id, path: theirs })) as { ok: false; failure: { message: string } };
        expect(refused.failure.message).toMatch(/not a comparison Custos wrote/);
        expect(readFileSync(theirs, 'utf8')).toBe('a,b\r\n');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      await desktop.close();
    }
  }, 60_000);

  it('refuses a run that names a comparison it does not hold', async () => {
    const refused = (await session.dispatch(IPC_CHANNELS.startRun, { job: CANDIDATES[0]!.job, outDir: join(tmpdir(), 'never-written'), comparisonId: crypto.randomUUID() })) as { ok: false; failure: { message: string } };
    expect(refused.ok).toBe(false);
    expect(refused.failure.message).toMatch(/comparison/);
    expect(existsSync(join(tmpdir(), 'never-written'))).toBe(false);
  });
});
