import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tableFromRows } from '../../../common/table/table.js';
import { ClassBuilder } from '../../../common/recoding/search/class-table.js';
import { classMeets, modelContext, type PrivacyModel } from '../../../common/recoding/search/models.js';
import { quasiColumn, sensitiveColumn } from '../../../common/recoding/search/recoding-input.js';

/**
 * An independent implementation's figures: pycanon (IFCA-Advanced-Computing/pycanon 1.3.5) on a
 * release Custos wrote (test/fixtures/pycanon-likeness: make-release.mjs made it, pycanon-figures.py
 * gave pycanon-figures.json). Nothing was suppressed, so the release's distribution is the input's.
 * pycanon gives the least β and δ the release meets; Custos's decisions must bracket them tightly.
 */
const DIR = 'test/fixtures/pycanon-likeness';
const figures = JSON.parse(readFileSync(`${DIR}/pycanon-figures.json`, 'utf8')) as { basicBeta: number; enhancedBetaPycanon: number; delta: number };
const lines = readFileSync(`${DIR}/release.csv`, 'utf8').trim().split(/\r?\n/);
const table = tableFromRows(lines[0]!.split(','), lines.slice(1).map((l) => l.split(',')), []);
const quasi = ['age', 'sex'].map((name) => quasiColumn(table.columns.find((c) => c.name === name)!, undefined));
const sensitive = sensitiveColumn(table.columns.find((c) => c.name === 'diagnosis')!);
const classes = new ClassBuilder(quasi, sensitive, table.rowCount).fromRecords([0, 0]);
const ctx = modelContext(sensitive, table.rowCount);
const failing = (model: PrivacyModel): number => {
  let n = 0;
  for (let c = 0; c < classes.count; c++) if (!classMeets(model, classes, c, ctx)) n++;
  return n;
};

describe('β-likeness and δ-disclosure against pycanon\'s figures for a release', () => {
  it('the release has 10 classes of 400 records, and meets the job\'s enhanced 0.5-likeness and 0.6-disclosure', () => {
    expect(table.rowCount).toBe(400);
    expect(classes.count).toBe(10);
    expect(failing({ type: 'beta-likeness', beta: 0.5, variant: 'enhanced' })).toBe(0);
    expect(failing({ type: 'delta-disclosure', delta: 0.6 })).toBe(0);
  });

  it('basic β-likeness: met at pycanon\'s β, failed just below it', () => {
    expect(figures.basicBeta).toBeCloseTo(0.23076923076923084, 15);
    expect(failing({ type: 'beta-likeness', beta: figures.basicBeta * (1 + 1e-9), variant: 'basic' })).toBe(0);
    expect(failing({ type: 'beta-likeness', beta: figures.basicBeta * (1 - 1e-9), variant: 'basic' })).toBeGreaterThan(0);
  });

  it('δ-disclosure (natural logarithm, as pycanon): met just above pycanon\'s δ, failed just below it', () => {
    expect(failing({ type: 'delta-disclosure', delta: figures.delta * (1 + 1e-9) })).toBe(0);
    expect(failing({ type: 'delta-disclosure', delta: figures.delta * (1 - 1e-9) })).toBeGreaterThan(0);
  });

  it('pycanon\'s "enhanced" figure is min(least basic β, max_v −ln p_v) over the table, not ARX\'s per-value bound', () => {
    let largest = 0;
    for (const p of ctx.overall) if (p > 0) largest = Math.max(largest, -Math.log(p));
    expect(figures.enhancedBetaPycanon).toBeCloseTo(Math.min(figures.basicBeta, largest), 14);
  });
});
