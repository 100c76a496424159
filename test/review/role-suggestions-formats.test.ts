import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { suggestRole } from '../../src/common/job/role-suggestions.js';
import { TableService } from '../../src/jobs/service/table-service.js';
// @ts-expect-error -- a plain ES module script without types
import { hospitalRegisterRows } from '../../scripts/hospital-register.mjs';

const CLI = resolve('dist/cli/custos.mjs');
const require = createRequire(import.meta.url);

const rows = (hospitalRegisterRows as (n: number) => string[][])(400);
const BIRTH = rows[0]!.indexOf('birth_date');
const STAY = rows[0]!.indexOf('length_of_stay');

const quote = (v: string): string => (/[",;\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** The same register three ways: CSV with ISO dates, ";" CSV with "dd.mm.yyyy" dates, a workbook with date cells and numbers. */
function registerFiles(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'custos-roles-'));
  const iso = join(dir, 'register.csv');
  writeFileSync(iso, rows.map((r) => r.map(quote).join(',')).join('\n') + '\n');
  const dotted = join(dir, 'register-dotted.csv');
  const dot = (v: string): string => v.split('-').reverse().join('.');
  writeFileSync(dotted, rows.map((r, i) => r.map((v, j) => quote(i > 0 && j === BIRTH ? dot(v) : v)).join(';')).join('\r\n') + '\r\n');
  const XLSX = require('xlsx') as typeof import('xlsx');
  const book = XLSX.utils.book_new();
  const cells = rows.map((r, i) => (i === 0 ? r : r.map((v, j) => (j === BIRTH ? new Date(`${v}T00:00:00Z`) : j === STAY ? Number(v) : v))));
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(cells, { cellDates: true }), 'register');
  const workbook = join(dir, 'register.xlsx');
  writeFileSync(workbook, XLSX.write(book, { type: 'buffer', bookType: 'xlsx', cellDates: false }) as Buffer);
  return [iso, dotted, workbook];
}

interface Suggested {
  readonly roles: Record<string, string>;
  readonly reasons: string[];
  readonly hierarchies: Record<string, unknown>;
}

/** What `custos init --method global-recoding` writes: the roles, the line of each role's reason, the hierarchies. */
function init(path: string): Suggested {
  const r = spawnSync(process.execPath, [CLI, 'init', path, '--method', 'global-recoding'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const job = JSON.parse(r.stdout);
  const columns = Object.keys(job.attributes);
  return { roles: job.attributes, reasons: (job._help as string[]).filter((line) => columns.some((c) => line.startsWith(`${c}: `))), hierarchies: job.method.hierarchies };
}

/** What the wizard's Columns step suggests for the file as its worker opens it. */
async function wizard(path: string) {
  const reply = await new TableService().handle({ call: 'inspect', path, options: { missing: [''], onBadRow: 'error' } });
  if (!reply.ok) throw new Error(reply.failure.message);
  const file = reply.value as OpenedFile;
  return Object.fromEntries(file.columns.map((c) => [c.name, suggestRole(c, file.rows)]));
}

describe('role suggestions for the hospital register of issue 34, whatever the file format', () => {
  const files = registerFiles();

  it('custos init removes names, record numbers and the free-text comment, and writes Safe Harbor\'s recoding of the birth date and the postcode as hierarchies', () => {
    const [csv] = files;
    const suggested = init(csv!);
    expect(suggested.roles).toMatchObject({ patient_id: 'identifier', name: 'identifier', comment: 'identifier', birth_date: 'quasi', postcode: 'quasi', diagnosis: 'sensitive' });
    expect(suggested.hierarchies).toEqual({ birth_date: { type: 'date' }, postcode: { type: 'masking', length: 5 } });
    expect(suggested.reasons.find((l) => l.startsWith('comment: '))).toMatch(/^comment: identifier — free text: .*a direct identifier, removed from the release$/);
    expect(suggested.reasons.find((l) => l.startsWith('birth_date: '))).toMatch(/full dates of birth .*recode to the year or coarser \(a date hierarchy, at level 2 or above\)/);
    expect(suggested.reasons.find((l) => l.startsWith('postcode: '))).toMatch(/full postcodes .*a masking hierarchy, at level 2 or above/);
  });

  it('the same roles, reasons and hierarchies from CSV (ISO or dd.mm.yyyy dates) and from a workbook, and the wizard suggests what init writes', async () => {
    const [first, ...others] = files.map(init);
    for (const other of others) expect(other).toEqual(first);
    for (const path of files) {
      const suggestions = await wizard(path);
      const roles = Object.fromEntries(Object.entries(suggestions).map(([name, s]) => [name, s?.role ?? 'quasi']));
      expect(roles, path).toEqual(first!.roles);
      for (const [name, s] of Object.entries(suggestions)) if (s) expect(first!.reasons, `${path}: ${name}`).toContain(`${name}: ${s.role} — ${s.reason}`);
      expect(Object.fromEntries(Object.entries(suggestions).flatMap(([name, s]) => (s?.recode?.hierarchy ? [[name, s.recode.hierarchy]] : [])))).toEqual(first!.hierarchies);
    }
  });

  it('a reconstruction-privacy job says in its notes that the birth date and postcode must be recoded before release', () => {
    const r = spawnSync(process.execPath, [CLI, 'init', files[0]!], { encoding: 'utf8' });
    const help = (JSON.parse(r.stdout)._help as string[]).join('\n');
    expect(help).toMatch(/RECODE birth_date, postcode before release \(birth_date to the year or coarser; postcode to the first three characters or coarser\): .*releases the quasi-identifiers as they are, so the disclosure review fails on them/);
  });
});
