import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOSSARY, PRINTED_TERMS } from '../src/common/glossary.js';

/** The code that prints what a custodian reads: the wizard, the mechanisms' sentences and forms, the reports, the command line. */
function printingSources(): { path: string; text: string }[] {
  const files: string[] = [];
  const walk = (dir: string, keep: (path: string) => boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test') walk(path, keep);
      } else if (keep(path) && !path.endsWith('.test.ts') && !path.endsWith('.test.tsx')) files.push(path);
    }
  };
  walk('src/renderer', (p) => p.endsWith('.tsx') || p.endsWith('.ts'));
  walk('src/mechanisms', (p) => /statement\.ts$|browser\/wizard\.tsx$|report-view\.ts$/.test(p));
  walk('src/common/report', (p) => p.endsWith('.ts'));
  walk('src/io/report', (p) => p.endsWith('.ts'));
  walk('src/cli', (p) => p.endsWith('.ts'));
  // The glossary itself is not evidence that a term is printed.
  return files.filter((p) => !p.endsWith('glossary.tsx')).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

describe('Help\'s glossary explains every term the app prints', () => {
  const sources = printingSources();
  const entries = new Set(GLOSSARY.map((g) => g.term));

  it('each printed term is still printed somewhere, and its entry is in the glossary', () => {
    expect(sources.length).toBeGreaterThan(30);
    const missing = PRINTED_TERMS.filter((t) => !entries.has(t.entry)).map((t) => `${String(t.printed)} → ${t.entry}`);
    expect(missing).toEqual([]);
    const unprinted = PRINTED_TERMS.filter((t) => !sources.some((s) => t.printed.test(s.text))).map((t) => String(t.printed));
    expect(unprinted).toEqual([]);
  });

  it('the terms issue 35 found missing are there: suppression limit, ℓ-diversity, lattice, the utility measures', () => {
    for (const printed of ['suppression limit', 'ℓ-diversity', 'lattice', 'discernibility', 'non-uniform entropy', 'average class size', 'MSE', 'Σ|B|²']) {
      const term = PRINTED_TERMS.find((t) => t.printed.test(printed));
      expect(term, printed).toBeDefined();
      expect(entries.has(term!.entry), printed).toBe(true);
    }
  });

  it('no entry is written twice, and every entry has its sentence', () => {
    expect(entries.size).toBe(GLOSSARY.length);
    for (const g of GLOSSARY) expect(g.meaning.length, g.term).toBeGreaterThan(20);
  });
});
