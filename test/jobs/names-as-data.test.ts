/**
 * Names in data are data: a column called `__proto__`, `constructor` or
 * `toString` is an ordinary column. For every method, an identifier column
 * never reaches a released file, every role applies to the column it names,
 * and the run neither crashes nor leaves anything half-written.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { csvText } from '../../src/io/output/neutralize.js';
import { parseJob } from '../../src/jobs/load-job.js';
import { TEST_STAMP_COLUMN } from '../../src/jobs/method-kit/release-view.js';
import { runJob } from '../../src/jobs/run-job.js';
import { verifyRelease } from '../../src/jobs/verify/verify-release.js';

const SPECIAL = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype', 'isPrototypeOf', 'ähnlich', '名前', '\u200b', '_', '0', '10', 'length'];

/** Header-safe names: no delimiter, quote or line break, no surrounding spaces (formula triggers allowed: the CSV guards them). */
const isControl = (ch: string): boolean => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f;
const plainName = fc
  .string({ minLength: 1, maxLength: 8 })
  .filter((s) => s.trim() === s && ![...s].some((ch) => ch === ',' || ch === '"' || isControl(ch)));
const name = fc.oneof(fc.constantFrom(...SPECIAL), plainName);
const fiveNames = fc.uniqueArray(name, { minLength: 5, maxLength: 5 });

const METHODS = ['uniform-perturbation', 'reconstruction-privacy', 'beta-privacy', 'safe-k-anonymity', 'partitioned-recoding', 'global-recoding', 'dp-counts'] as const;
type MethodType = (typeof METHODS)[number];

const ROWS = 60;
// Values are names too (β values, public domains, risky groups, bucket counts key them).
const Q1 = ['constructor', 'b', '__proto__'];
const S = ['__proto__', '-3a', 'toString'];

function quote(field: string): string {
  return `"${field.replace(/"/g, '""')}"`;
}

function methodFor(type: MethodType, [, q1, q2, s]: readonly string[]): Record<string, unknown> {
  // The sensitive column's domain is declared: its values are names too.
  const domains = { [s!]: S };
  const recoding = { hierarchies: { [q2!]: { type: 'interval', widths: [10] } }, levels: { [q2!]: 1 } };
  switch (type) {
    case 'uniform-perturbation':
      return { type, retention: 0.5, domains };
    case 'reconstruction-privacy':
      return { type, retention: 0.5, epsilon: 0.5, delta: 0.3, domains };
    case 'beta-privacy':
      return { type, beta: { default: 0.9, values: { [S[1]!]: '1/2' } }, domains };
    case 'safe-k-anonymity':
      return { type, k: 2, sampling: 0.5, epsilon: 1, ...recoding };
    case 'partitioned-recoding':
      return { type, parts: 2, model: { type: 'k-anonymity', k: 2 }, ...recoding };
    case 'global-recoding':
      return { type, models: [{ type: 'k-anonymity', k: 2 }], suppressionLimit: 0.2, hierarchies: recoding.hierarchies };
    case 'dp-counts':
      return { type, epsilon: 1, queries: 'marginals', columns: [q1], domains: { [q1!]: Q1 } };
  }
}

/** The job as JSON text, as a user's file would hold it: `__proto__` is an own key after JSON.parse. */
function jobText(names: readonly string[], type: MethodType, input: string, out: string): string {
  const [id, q1, q2, s, ins] = names as [string, string, string, string, string];
  const attributes = `{${[
    [id, 'identifier'],
    [q1, 'quasi'],
    [q2, 'quasi'],
    [s, type === 'dp-counts' ? 'insensitive' : 'sensitive'],
    [ins, 'insensitive'],
  ]
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(', ')}}`;
  const method = JSON.stringify(methodFor(type, names));
  // Object literals above lose a `__proto__` key; rebuild the name-keyed parts as text.
  const methodText = method
    .replace(/"hierarchies":\{[^}]*\}\}/, `"hierarchies":{${JSON.stringify(q2)}:{"type":"interval","widths":[10]}}`)
    .replace(/"levels":\{[^}]*\}/, `"levels":{${JSON.stringify(q2)}:1}`)
    .replace(/"domains":\{[^}]*\}/, type === 'dp-counts' ? `"domains":{${JSON.stringify(q1)}:${JSON.stringify(Q1)}}` : `"domains":{${JSON.stringify(s)}:${JSON.stringify(S)}}`)
    .replace(/"values":\{[^}]*\}/, `"values":{${JSON.stringify(S[0])}:"1/2",${JSON.stringify(S[1])}:"1/2"}`);
  return `{"version": 1, "input": {"path": ${JSON.stringify(input)}}, "attributes": ${attributes}, "method": ${methodText}, "output": {"dir": ${JSON.stringify(out)}, "formats": ["csv"], "report": ["json"]}}`;
}

async function runWith(names: readonly string[], type: MethodType): Promise<void> {
  const [id, q1, q2, s, ins] = names as [string, string, string, string, string];
  const dir = mkdtempSync(join(tmpdir(), 'custos-names-'));
  const input = join(dir, 'input.csv');
  const lines = [[id, q1, q2, s, ins].map(quote).join(',')];
  for (let i = 0; i < ROWS; i++) lines.push([`SECRET-ID-${1000 + i}`, Q1[i % 3]!, String(20 + ((i * 7) % 40)), S[(i * 5) % 3]!, i % 2 ? 'yes' : 'no'].join(','));
  writeFileSync(input, lines.join('\n') + '\n');
  const text = jobText(names, type, input, join(dir, 'release'));
  const loaded = parseJob(JSON.parse(text), dir);
  const result = await runJob(loaded, { random: new SeededTestRandomSource(3) });

  // Roles apply to the columns they name, whatever the names.
  const roles = new Map(result.report.input.columns.map((c) => [c.name, c.role]));
  expect(roles.get(id), `${type} ${JSON.stringify(names)}`).toBe('identifier');
  expect(roles.get(q1)).toBe('quasi');
  expect(roles.get(ins)).toBe('insensitive');
  expect(roles.get(s)).toBe(type === 'dp-counts' ? 'insensitive' : 'sensitive');
  for (const c of result.report.input.columns) expect(typeof c.role).toBe('string');
  // A β override applies to the value it names, `__proto__` included; the others keep the default.
  if (type === 'beta-privacy') {
    const betas = new Map(result.report.beta?.values.map((v) => [v.value, v.betaExact]));
    expect([betas.get(S[0]!), betas.get(S[1]!), betas.get(S[2]!)]).toEqual(['1/2', '1/2', '9/10']);
  }

  // No identifier value and no identifier column in any released file.
  const release = join(dir, 'release');
  for (const file of readdirSync(release)) {
    const content = readFileSync(join(release, file), 'utf8');
    expect(content.includes('SECRET-ID-'), `${type}: ${file} holds identifier values (names ${JSON.stringify(names)})`).toBe(false);
    if (file.endsWith('.csv') && file !== 'answers.csv' && file !== 'st.csv') {
      const header = content.split(/\r?\n/, 1)[0]!.split(',').map((h) => (h.startsWith('"') ? JSON.parse(h.replace(/""/g, '\\"')) as string : h)).filter((h) => h !== TEST_STAMP_COLUMN);
      // A CSV header carries the formula guard like any text cell.
      expect(header, `${type}: ${file}`).not.toContain(csvText(id));
      expect(header).toContain(csvText(q1));
      expect(header).toContain(csvText(ins));
    }
  }

  // The auditor's re-check reads the same names from the released files and agrees
  // (a seeded test run is rightly never a protected release: that one check must fail).
  const verified = await verifyRelease(release, { original: input });
  expect(verified.checks.some((c) => c.name === 'randomness' && !c.ok)).toBe(true);
  expect(verified.checks.filter((c) => !c.ok && c.name !== 'randomness'), `${type} ${JSON.stringify(names)}`).toEqual([]);
}

describe('column names that are JavaScript object keys', () => {
  for (const type of METHODS) {
    it(`${type}: identifiers never released, roles as named, for any names`, async () => {
      await fc.assert(
        fc.asyncProperty(fiveNames, async (names) => runWith(names, type)),
        {
          numRuns: 6,
          seed: 20261122,
          examples: [[['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']], [['constructor', '__proto__', 'prototype', 'toString', 'isPrototypeOf']], [['-id', '=q1', '+q2', '@s', 'ins']]],
        },
      );
    });
  }
});
