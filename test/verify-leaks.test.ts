/**
 * verify's publishability check against leaks planted into real release folders: each demo job
 * (resources/demo/*.json) runs through the CLI, a copy of its release gets one confidential fact
 * written into one file (the checksums fixed, so only the content checks can tell), and verify must
 * fail naming the file and the kind of fact, never the value. The untouched folders pass.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import PDFDocument from 'pdfkit';
import { beforeAll, describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/custos.mjs');
const DEMOS = readdirSync('resources/demo').filter((n) => n.endsWith('.json'));
const ROWS = 30162;

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

function custos(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function verify(dir: string, extra: string[] = []): { code: number; checks: Check[]; stdout: string } {
  const r = custos(['verify', dir, '--json', '--accept-test-randomness', ...extra]);
  return { code: r.code, checks: (JSON.parse(r.stdout) as { checks: Check[] }).checks, stdout: r.stdout };
}

const publishable = (checks: readonly Check[]): Check => checks.find((c) => c.name === 'publishable')!;

function rehash(dir: string, file: string, listing: { files: { name: string; sha256: string; bytes: number }[] }): void {
  const entry = listing.files.find((f) => f.name === file);
  if (!entry) return;
  const bytes = readFileSync(join(dir, file));
  entry.sha256 = createHash('sha256').update(bytes).digest('hex');
  entry.bytes = bytes.length;
}

/** Edits a release file and fixes its checksum in report.json and the manifest. */
function plant(dir: string, file: string, edit: (text: string) => string): void {
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  const reportPath = join(dir, 'report.json');
  if (file !== 'report.json') {
    const report = JSON.parse(readFileSync(reportPath, 'utf8'));
    rehash(dir, file, report.output);
    writeFileSync(reportPath, JSON.stringify(report, null, 2));
  }
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  rehash(dir, file, manifest);
  rehash(dir, 'report.json', manifest);
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
}

describe('verify flags confidential facts planted into a release, and passes the untouched demo releases', () => {
  const root = mkdtempSync(join(tmpdir(), 'custos-leaks-'));
  const demoDir = join(root, 'demo');
  const input = join(root, 'adult', 'adult.csv');
  const releases = new Map<string, string>();
  let copies = 0;

  /** A copy of a release, with its internal folder beside it unless `internal` is false. */
  const copy = (demo: string, internal = true): string => {
    const target = join(root, `copy-${copies++}`);
    cpSync(releases.get(demo)!, target, { recursive: true });
    if (internal) cpSync(`${releases.get(demo)!}-internal`, `${target}-internal`, { recursive: true });
    return target;
  };

  beforeAll(() => {
    // The demo jobs name ../adult/…: the same layout in a scratch folder.
    mkdirSync(demoDir);
    symlinkSync(resolve('resources/adult'), join(root, 'adult'));
    for (const name of DEMOS) {
      cpSync(join('resources/demo', name), join(demoDir, name));
      const r = custos(['run', join(demoDir, name), '--json', '--test-seed', '5']);
      expect(r.code, r.stderr).toBe(0);
      const job = JSON.parse(readFileSync(join(demoDir, name), 'utf8')) as { output: { dir: string } };
      releases.set(name, join(demoDir, job.output.dir));
    }
  }, 120_000);

  it('covers every demo job', () => expect(DEMOS.length).toBeGreaterThanOrEqual(5));

  for (const name of DEMOS) {
    it(`${name}: the untouched release passes verify, with the internal report and with --original alone`, () => {
      const dir = releases.get(name)!;
      const withOriginal = verify(dir, ['--original', input]);
      expect(withOriginal.checks.filter((c) => !c.ok)).toEqual([]);
      expect(withOriginal.code).toBe(0);
      expect(publishable(withOriginal.checks).detail).toMatch(/every figure and sentence the internal report keeps internal/);
      // Without the internal report, --original alone drives the search (the missing report fails its own check).
      const v = verify(copy(name, false), ['--original', input]);
      expect(publishable(v.checks)).toMatchObject({ ok: true });
      expect(publishable(v.checks).detail).toMatch(/the original's checksum, path and file names/);
    }, 120_000);
  }

  it('with the internal report: the exact count in a space-grouped rendering, a summary sentence, the detected encoding and a suppressed count (safe k-anonymity, DP)', () => {
    const demo = 'adult-search-job.json';
    const internal = JSON.parse(readFileSync(join(`${releases.get(demo)!}-internal`, 'internal-report.json'), 'utf8'));
    expect(internal.input.rows).toBe(ROWS);
    const html = copy(demo);
    plant(html, 'report.html', (t) => t.replace('</main>', '<p>30\u202f162 records were read.</p></main>'));
    const a = verify(html);
    expect(a.code).toBe(1);
    expect(publishable(a.checks).detail).toContain("report.html states the input's record count");

    const sentence = (internal.summary as string[]).find((s) => !JSON.parse(readFileSync(join(releases.get(demo)!, 'report.json'), 'utf8')).summary.includes(s))!;
    expect(sentence).toBeDefined();
    const summary = copy(demo);
    plant(summary, 'report.json', (t) => {
      const report = JSON.parse(t);
      report.summary.push(sentence);
      return JSON.stringify(report, null, 2);
    });
    const b = verify(summary);
    expect(b.code).toBe(1);
    expect(publishable(b.checks).detail).toContain('report.json states an internal-only summary sentence');

    // The detected encoding is a field the public schema allows: only the internal report says it is not published for a DP method.
    const encoding = copy(demo);
    plant(encoding, 'report.json', (t) => {
      const report = JSON.parse(t);
      report.input.encoding = internal.input.encoding;
      return JSON.stringify(report, null, 2);
    });
    const c = verify(encoding);
    expect(c.code).toBe(1);
    expect(publishable(c.checks).detail).toContain("report.json states the input's detected encoding");

    // The suppressed count in a CSV note line.
    const csv = copy(demo);
    plant(csv, 'release.csv', (t) => `${t}suppressed,${internal.output.suppressed}\r\n`);
    const d = verify(csv);
    expect(d.code).toBe(1);
    expect(publishable(d.checks).detail).toContain('release.csv states an internal-only figure (output.suppressed)');

    // A hierarchy file's base name in the HTML report.
    const hierarchy = copy(demo);
    plant(hierarchy, 'report.html', (t) => t.replace('</main>', '<p>levels from adult_hierarchy_age</p></main>'));
    expect(publishable(verify(hierarchy).checks).detail).toContain("report.html states a hierarchy file's base name");

    // No finding prints the value it found.
    for (const v of [a, b, c, d]) {
      const detail = publishable(v.checks).detail;
      expect(detail).not.toMatch(/30[,\u202f ]?162/);
      expect(detail).not.toContain(String(internal.output.suppressed));
      expect(detail).not.toContain(sentence);
    }
  }, 120_000);

  it('reads the text of a PDF drawn with embedded fonts (glyph codes through ToUnicode), and flags the true count of a β-privacy value there', async () => {
    const demo = 'adult-beta-job.json';
    const internal = JSON.parse(readFileSync(join(`${releases.get(demo)!}-internal`, 'internal-report.json'), 'utf8'));
    // β-privacy with fake values: each value's true count is internal.
    const count = (internal.beta.values as { count: number }[]).map((v) => v.count).find((n) => n >= 1000)!;
    const dir = copy(demo);
    const pdf = join(dir, 'notes.pdf');
    await new Promise<void>((done) => {
      const doc = new PDFDocument();
      const out = createWriteStream(pdf);
      out.on('finish', () => done());
      doc.pipe(out);
      doc.font(resolve('node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf')).text(`The largest class holds ${count.toLocaleString('en-US')} records.`);
      doc.end();
    });
    // Glyph-coded: the raw bytes do not hold the number.
    expect(readFileSync(pdf, 'latin1')).not.toContain(count.toLocaleString('en-US'));
    const v = verify(dir);
    expect(v.code).toBe(1);
    expect(publishable(v.checks).detail).toContain('notes.pdf states an internal-only figure (beta.values[].count)');
    expect(publishable(v.checks).detail).not.toContain(count.toLocaleString('en-US'));
  }, 60_000);

  it("with --original only: the input's count where the method does not publish it, its path, name and base name; never a count the release shows by design", () => {
    // Global recoding deleted records: no released table has the input's size.
    const recoding = 'adult-local-suppression-job.json';
    const cases: [string, string, string][] = [
      ['report.html', `<p>${ROWS.toLocaleString('en-US')} records in the input</p>`, "report.html states the input's record count"],
      ['report.html', `<p>read from ${input}</p>`, "report.html states the input's path"],
      ['report.html', '<p>read from adult.csv</p>', "report.html states the input's file name"],
      ['report.html', '<p>the adult file</p>', "report.html states the input's base name"],
    ];
    for (const [file, text, finding] of cases) {
      const dir = copy(recoding, false);
      plant(dir, file, (t) => t.replace('</main>', `${text}</main>`));
      const v = verify(dir, ['--original', input]);
      expect(v.code).toBe(1);
      expect(publishable(v.checks).detail, text).toContain(finding);
      expect(publishable(v.checks).detail).not.toContain(input);
      expect(publishable(v.checks).detail).not.toMatch(/30,?162/);
    }
    // A DP release: the count is searched in the workbook's report sheets too (a plain CSV note line here).
    const dp = copy('adult-search-job.json', false);
    plant(dp, 'release.csv', (t) => `${t}"${ROWS} records"\r\n`);
    expect(publishable(verify(dp, ['--original', input]).checks).detail).toContain("release.csv states the input's record count");
    // β-privacy publishes every record (QIT): its count is there by design and not flagged.
    const beta = copy('adult-beta-job.json', false);
    plant(beta, 'report.html', (t) => t.replace('</main>', `<p>${ROWS.toLocaleString('en-US')} records</p></main>`));
    expect(publishable(verify(beta, ['--original', input]).checks)).toMatchObject({ ok: true });
  }, 120_000);

  it("β-privacy's published report leaves out the Anatomy baseline, which is drawn from the true counts", () => {
    const dir = releases.get('adult-beta-job.json')!;
    const internal = JSON.parse(readFileSync(join(`${dir}-internal`, 'internal-report.json'), 'utf8'));
    const external = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(internal.beta.anatomy.sizes).toBeDefined();
    expect(external.beta.anatomy).toBeUndefined();
    expect(external.beta.chosen.algorithm).toBe('multi-size');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<td>anatomy<\/td>/);
    expect(html).not.toMatch(/Anatomy ℓ =/);
    // And verify flags the baseline's bucket counts, should they reach the release.
    const sizes = Object.values(internal.beta.anatomy.sizes as Record<string, number>).filter((n) => n >= 1000 && !Object.values(external.beta.chosen.sizes as Record<string, number>).includes(n));
    if (sizes.length > 0) {
      const planted = copy('adult-beta-job.json');
      plant(planted, 'report.html', (t) => t.replace('</main>', `<p>Anatomy: ${sizes[0]!.toLocaleString('en-US')} buckets</p></main>`));
      expect(publishable(verify(planted).checks).detail).toContain('report.html states an internal-only figure (beta.anatomy.sizes');
    }
  }, 60_000);
});
