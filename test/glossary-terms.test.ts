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

/**
 * The technical terms of statistical disclosure control and of the papers Custos implements, as a
 * reader meets them: whichever of them the app prints must have a glossary entry. A term added to
 * the code that prints is checked as soon as it is in this catalogue; the catalogue lists the field's
 * vocabulary, printed today or not, so a term used later is caught too.
 */
const JARGON: readonly string[] = [
  'quasi-identifier', 'micro group', 'retention', 'ρ1–ρ2', 's_g', 'safe size', 'bucket', 'fake value', 'Anatomy', 'Σ|B|²', 'MSE', 'mean squared error',
  'ℓ-diversity', 't-closeness', 'β-likeness', 'δ-disclosure', 'δ-presence', 'prosecutor', 'journalist', 'marketer', 'hierarchy', 'lattice', 'suppression limit',
  'local suppression', 'frontier', 'discernibility', 'average class size', 'non-uniform entropy', 'utility measure', 'precision', 'ambiguity', 'KL divergence',
  'height', 'generalization loss', 'differential privacy', 'differentially private', 'MDAV', 'mean relative error', 'disclosure review', 'internal report',
  'naive Bayes', 'classifier', 'contingency', 'total variation', 'Hellinger', 'generalization', 'domain', 'equivalence class', 'sample unique',
  'population uniqueness', 'k-map', 'individual risk', 'SUDA', 'special unique', 'sensitivity', 'Laplace', 'tail slope', 'effective ε', 'filtering attack',
  'differential inference', 'corruption attack', 'reconstruction test', 'Chernoff', 'maximum-likelihood', 'exponential mechanism', 'sampling fraction',
  'sampling rate', 'SSE/SST', 'IL1s', 'information loss', 'z-score', 'wildcard', 'heuristic search', 'suppression factor', 'attribute weight', 'Mondrian',
];

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

  it('every technical term of the catalogue that the app prints has its glossary entry (a new printed term without one fails here)', () => {
    // Each found in the printing code (case-insensitively) must be matched by a PRINTED_TERMS pattern, whose entry the first test checks.
    const printed = JARGON.filter((term) => sources.some((s) => s.text.toLowerCase().includes(term.toLowerCase())));
    expect(printed.length).toBeGreaterThan(40);
    const unexplained = printed.filter((term) => !PRINTED_TERMS.some((t) => t.printed.test(term)));
    expect(unexplained).toEqual([]);
  });

  it('the catalogue check can fail: a printed term no pattern covers is named', () => {
    const covered = (term: string): boolean => PRINTED_TERMS.some((t) => t.printed.test(term));
    expect(covered('tail slope')).toBe(true);
    expect(covered('Mondrian partitioning')).toBe(false);
  });

  it('no entry is written twice, and every entry has its sentence', () => {
    expect(entries.size).toBe(GLOSSARY.length);
    for (const g of GLOSSARY) expect(g.meaning.length, g.term).toBeGreaterThan(20);
  });
});
