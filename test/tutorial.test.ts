import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * docs/TUTORIAL.md quotes what Custos prints on the bundled sample. This walks its command-line part
 * as a reader would (init, the hierarchy edit it describes, assess, run, compare, verify) and checks
 * that every figure the tutorial quotes is the figure the commands print today, so the tutorial
 * cannot drift from the program.
 */
const BIN = resolve('bin/custos.mjs');
const tutorial = readFileSync('docs/TUTORIAL.md', 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'custos-tutorial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function custos(args: string[]): { code: number; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env['CUSTOS_TEST_RANDOMNESS'];
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: dir, env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The first capture of `pattern` in `text`, failing with the text when it does not match. */
function figure(text: string, pattern: RegExp): string {
  const m = pattern.exec(text);
  expect(m, `${pattern} in:\n${text}`).not.toBeNull();
  return m?.[1] ?? '';
}

describe('the ten-minute tutorial', () => {
  it('its commands run on the bundled sample and print the figures it quotes', () => {
    for (const f of readdirSync('resources/adult').filter((n) => n.endsWith('.csv'))) copyFileSync(join('resources/adult', f), join(dir, f));

    const inspect = custos(['inspect', 'adult.csv']);
    expect(inspect.code, inspect.stderr).toBe(0);
    const rows = figure(inspect.stdout, /([\d,]+) rows, (\d+) columns/);
    expect(tutorial).toContain(`${rows} rows`);

    const init = custos(['init', 'adult.csv', '--method', 'global-recoding']);
    expect(init.code, init.stderr).toBe(0);
    const job = JSON.parse(init.stdout) as { _help: string[]; attributes: Record<string, string>; method: { hierarchies: Record<string, string> } };
    expect(job._help[0]).toMatch(/^A job for .+adult\.csv \(30,162 records\) with Optimal global recoding, written by custos init\./);
    // "give each quasi-identifier its hierarchy file … under method.hierarchies"
    for (const [column, role] of Object.entries(job.attributes)) if (role === 'quasi') job.method.hierarchies[column] = `adult_hierarchy_${column}.csv`;
    expect(tutorial).toContain('"age": "adult_hierarchy_age.csv"');
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job, null, 2));

    const assess = custos(['assess', 'job.json']);
    expect(assess.code, assess.stderr).toBe(0);

    const run = custos(['run', 'job.json']);
    expect(run.code, run.stderr).toBe(0);
    const guarantee = figure(run.stdout, /guarantee: (.+ — holds)/);
    expect(tutorial.replace(/\s+/g, ' ')).toContain(guarantee);
    const [classes, smallest] = /(\d[\d,]*) classes, smallest (\d+)/.exec(run.stdout)?.slice(1) ?? [];
    expect(tutorial).toContain(`${classes} classes, the smallest of ${smallest} records`);
    const suppressed = Number(figure(run.stdout, /(\d+) suppressed/)).toLocaleString('en-US');
    expect(tutorial).toContain(`${suppressed} records suppressed`);
    const released = figure(run.stdout, /0 of ([\d,]+) records unique/);
    expect(tutorial).toContain(`none of the ${released} released records is unique`);
    expect(run.stdout).toMatch(/disclosure review: PASSED/);
    expect(run.stdout).toMatch(/prosecutor risk highest 0\.2000/);
    expect(tutorial).toMatch(/highest\s+prosecutor risk is 0\.2/);

    const compare = custos(['compare', 'job.json', '--grid', 'suppressionLimit=0,0.05,0.1']);
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toMatch(/suppressionLimit=0\.1/);
    expect(tutorial).toContain('npx custos compare job.json --grid suppressionLimit=0,0.05,0.1');

    const verify = custos(['verify', 'release']);
    expect(verify.code, verify.stdout).toBe(0);
    expect(tutorial).toContain(`npx custos verify release                          # ${figure(verify.stdout, /every check holds \((\d+)\)/)} checks`);
    const original = custos(['verify', 'release', '--original', 'adult.csv']);
    expect(original.code, original.stdout).toBe(0);
    expect(tutorial).toContain(`and against the input: ${figure(original.stdout, /every check holds \((\d+)\)/)} checks`);
  }, 120_000);
});
