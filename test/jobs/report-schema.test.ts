/**
 * The report model is a zod schema with a union keyed on the method: every
 * report a run writes parses as its variant; the external schema refuses any
 * internal field (by name); a mechanism's report holds its own sections and no
 * other's; a value a report cannot state is absent, never NaN written as null.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { withoutNonFinite } from '../../src/common/report/report-model.js';
import { MECHANISM_TYPES, metadataOf, type MechanismType } from '../../src/mechanisms/definitions.js';
import { parseReport } from '../../src/mechanisms/report-schema.js';
import { parseJob } from '../../src/jobs/load-job.js';
import { runJob } from '../../src/jobs/run-job.js';

const METHODS: { readonly [T in MechanismType]: Record<string, unknown> } = {
  'uniform-perturbation': { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } },
  'reconstruction-privacy': { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data' } },
  'beta-privacy': { type: 'beta-privacy', beta: { coefficient: 4 }, domains: { diagnosis: 'from-data' } },
  'safe-k-anonymity': { type: 'safe-k-anonymity', k: 2, sampling: 0.5, hierarchies: { age: { type: 'interval', widths: [10] } }, levels: { age: 1 } },
  'partitioned-recoding': { type: 'partitioned-recoding', parts: 2, model: { type: 'k-anonymity', k: 2 }, hierarchies: { age: { type: 'interval', widths: [10] } }, levels: { age: 1 } },
  'global-recoding': { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 2 }, { type: 'l-diversity', l: 2 }], suppressionLimit: 0.1, hierarchies: { age: { type: 'interval', widths: [10] } } },
  microaggregation: { type: 'microaggregation', columns: ['age'], k: 3 },
  'dp-counts': { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex'], domains: { sex: ['F', 'M'] } },
};

type Json = Record<string, unknown>;
const reports = new Map<MechanismType, { external: Json; internal: Json; externalText: string; internalText: string }>();

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-report-schema-'));
  const input = join(dir, 'input.csv');
  const lines = ['age,sex,diagnosis'];
  for (let i = 0; i < 80; i++) lines.push(`${20 + ((i * 7) % 40)},${i % 2 ? 'F' : 'M'},${['flu', 'cold', 'HIV'][(i * 5) % 3]}`);
  writeFileSync(input, lines.join('\n') + '\n');
  for (const type of MECHANISM_TYPES) {
    const out = join(dir, type);
    const job = { version: 1, input: { path: input }, attributes: { diagnosis: type === 'dp-counts' ? 'insensitive' : 'sensitive' }, method: METHODS[type], output: { dir: out, formats: ['csv'], report: ['json'] } };
    await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(5) });
    const externalText = readFileSync(join(out, 'report.json'), 'utf8');
    const internalText = readFileSync(join(`${out}-internal`, 'internal-report.json'), 'utf8');
    reports.set(type, { external: JSON.parse(externalText) as Json, internal: JSON.parse(internalText) as Json, externalText, internalText });
  }
});

describe('the report schema', () => {
  for (const type of MECHANISM_TYPES) {
    it(`${type}: both written reports parse as their variant, with no null (hidden values are absent)`, () => {
      const r = reports.get(type)!;
      const external = parseReport(r.external, 'external');
      const internal = parseReport(r.internal, 'internal');
      expect(external.ok ? [] : external.problems).toEqual([]);
      expect(internal.ok ? [] : internal.problems).toEqual([]);
      expect(r.externalText).not.toMatch(/:\s*null\b/);
      expect(r.internalText).not.toMatch(/:\s*null\b/);
    });

    it(`${type}: the external schema names every internal field an internal report holds`, () => {
      const r = reports.get(type)!;
      const asExternal = parseReport({ ...r.internal, variant: 'external' }, 'external');
      expect(asExternal.ok).toBe(false);
      const problems = asExternal.ok ? '' : asExternal.problems.join('\n');
      for (const field of ['input.path', 'input.sha256', 'input.rows', 'confidential']) expect(problems).toContain(field);
    });

    it(`${type}: holds its own sections and no other mechanism's`, () => {
      const r = reports.get(type)!;
      const own = metadataOf(type)!.reportSections;
      for (const section of own) {
        const without = { ...r.external };
        delete without[section];
        expect(parseReport(without, 'external').ok, `${type} without ${section}`).toBe(false);
      }
      const foreign = MECHANISM_TYPES.flatMap((t) => metadataOf(t)!.reportSections).find((s) => !own.includes(s))!;
      const other = [...reports.entries()].find(([t]) => metadataOf(t)!.reportSections.includes(foreign))![1];
      const withForeign = parseReport({ ...r.external, [foreign]: other.external[foreign] }, 'external');
      expect(withForeign.ok ? '' : withForeign.problems.join('\n')).toContain(`${foreign} (not a field of the external ${type} report)`);
    });
  }

  it('the largest valid ε, a fact of the input\'s micro groups, is in the internal report only', () => {
    const r = reports.get('reconstruction-privacy')!;
    expect(r.internalText).toMatch(/largestValidEpsilon/);
    expect(r.externalText).not.toMatch(/largestValidEpsilon/);
  });

  it('dp-counts: the internal report repeats the first answers for the results view; the published one does not (they are in answers.csv)', () => {
    const r = reports.get('dp-counts')!;
    const internal = r.internal as { dp: { answers?: { query: string; answer: number; lower95: number; upper95: number }[] } };
    expect(internal.dp.answers?.length).toBeGreaterThan(0);
    const first = internal.dp.answers![0]!;
    expect(first.upper95 - first.answer).toBeCloseTo(first.answer - first.lower95, 9);
    expect((r.external as { dp: Record<string, unknown> }).dp['answers']).toBeUndefined();
    expect(parseReport({ ...r.external, dp: { ...(r.external['dp'] as object), answers: internal.dp.answers } }, 'external').ok).toBe(false);
  });

  it('a number the report cannot state is removed, not written as null', () => {
    const cleaned = withoutNonFinite({ a: 1, b: Number.NaN, c: { d: Number.POSITIVE_INFINITY, e: [1, { f: Number.NaN, g: 2 }] } });
    expect(cleaned).toEqual({ a: 1, c: { e: [1, { g: 2 }] } });
    expect('b' in cleaned).toBe(false);
    const r = reports.get('reconstruction-privacy')!;
    const withNull = structuredClone(r.internal) as { utility: { relativeError: Json } };
    withNull.utility.relativeError['release'] = null;
    expect(parseReport(withNull, 'internal').ok).toBe(false);
  });
});
