// The mechanism is the only place that knows the mechanism (issue 33): a method type written as a
// quoted literal ('dp-counts', "global-recoding", `microaggregation`) outside its own folder and the
// registries is knowledge of one mechanism that nothing lists or checks. The types are the registered
// ones (MECHANISM_TYPES), so 'rounding', a hierarchy's type and no method, is not one of them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MECHANISM_TYPES } from '../../src/mechanisms/definitions.js';

/** The registries, which name every type by design. */
const REGISTRIES = ['src/mechanisms/definitions.ts', 'src/mechanisms/node-registry.ts', 'src/mechanisms/browser-registry.ts'];

const isTest = (path: string): boolean => /\.test\.tsx?$/.test(path) || path.includes('/test/');

/** Each quoted literal of a method type in a file's text, as "path:line: 'type'", unless the file may name it. */
export function strayLiterals(path: string, text: string, types: readonly string[]): string[] {
  if (isTest(path) || REGISTRIES.includes(path)) return [];
  const found: string[] = [];
  for (const type of types) {
    if (path.startsWith(`src/mechanisms/${type}/`)) continue;
    const quoted = new RegExp(`(['"\`])${type.replace(/[-]/g, '\\-')}\\1`, 'g');
    for (const match of text.matchAll(quoted)) found.push(`${path}:${text.slice(0, match.index).split('\n').length}: ${match[0]}`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(tsx?|m?js)$/.test(name) ? [path] : [];
  });
}

describe('method type literals', () => {
  it('appear only in their own mechanism folder and the registries (tests aside)', () => {
    const files = sourceFiles('src');
    expect(files.length).toBeGreaterThan(100);
    const stray = files.flatMap((f) => strayLiterals(f, readFileSync(f, 'utf8'), MECHANISM_TYPES));
    expect(stray).toEqual([]);
  });

  it('are found in any quotes outside the folder, not inside it, in a registry or a test, and only for registered types', () => {
    const types = ['dp-counts', 'global-recoding'];
    expect(strayLiterals('src/renderer/app.tsx', "a = 'dp-counts';\nb = \"global-recoding\";\nc = `dp-counts`;", types)).toEqual([
      "src/renderer/app.tsx:1: 'dp-counts'",
      'src/renderer/app.tsx:3: `dp-counts`',
      'src/renderer/app.tsx:2: "global-recoding"',
    ]);
    // A longer word, a type in prose without quotes, or a hierarchy type is no method literal.
    expect(strayLiterals('src/jobs/x.ts', "a = 'dp-counts-x'; // dp-counts\nb = { type: 'rounding' };", types)).toEqual([]);
    expect(strayLiterals('src/mechanisms/dp-counts/node/run.ts', "a = 'dp-counts';", types)).toEqual([]);
    expect(strayLiterals('src/mechanisms/global-recoding/node/run.ts', "a = 'dp-counts';", types)).toEqual(["src/mechanisms/global-recoding/node/run.ts:1: 'dp-counts'"]);
    expect(strayLiterals('src/mechanisms/definitions.ts', "a = 'dp-counts';", types)).toEqual([]);
    expect(strayLiterals('src/jobs/x.test.ts', "a = 'dp-counts';", types)).toEqual([]);
    expect(MECHANISM_TYPES).not.toContain('rounding');
    expect(MECHANISM_TYPES).toContain('global-recoding');
  });
});
