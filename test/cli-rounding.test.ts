import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adultDemoHierarchies, writeAdultDemoJob } from './adult-demo-job.js';

const CLI = resolve('dist/cli/custos.mjs');

describe('a rounding hierarchy in a recoding job (Adult, global recoding)', () => {
  it('rounds age down to a multiple of the chosen level\'s base, describes the hierarchy, and verify passes', () => {
    const bases = [5, 10, 100];
    const { dir } = writeAdultDemoJob('custos-rounding-', { hierarchies: { ...adultDemoHierarchies(), age: { type: 'rounding', bases } } });
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json', '--test-seed', '2'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { method: { levels: Record<string, number> }; anonymity: { columns: { name: string; hierarchy: string; depth: number }[] } };
    const level = report.method.levels['age']!;
    const described = report.anonymity.columns.find((c) => c.name === 'age')!;
    expect(described.hierarchy).toBe('rounding down to multiples of 5, 10, 100');
    expect(described.depth).toBe(5);
    const lines = readFileSync(join(dir, 'out', 'release.csv'), 'utf8').trim().split('\r\n');
    const age = lines[0]!.split(',').indexOf('age');
    const ages = lines.slice(1).map((l) => l.split(',')[age]!);
    console.log(`global recoding with age rounded: level ${level} (${ages.slice(0, 5).join(', ')} …)`);
    if (level >= 1 && level <= bases.length) expect(ages.every((a) => Number(a) % bases[level - 1]! === 0)).toBe(true);
    if (level === 0) expect(new Set(ages).size).toBeGreaterThan(20);
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--accept-test-randomness', '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('at a fixed level releases the multiples of that level\'s base (partitioned recoding, level 1: base 5)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-rounding-'));
    const job = { version: 1, input: { path: resolve('resources/adult/adult.csv'), delimiter: ';', missing: ['', '?'] }, attributes: { occupation: 'insensitive', 'salary-class': 'insensitive', 'native-country': 'insensitive', education: 'insensitive' }, method: { type: 'partitioned-recoding', parts: 1, model: { type: 'k-anonymity', k: 2 }, hierarchies: { age: { type: 'rounding', bases: [5, 10, 100] } }, levels: { age: 1 } }, output: { dir: 'out', formats: ['csv'], report: ['json'] } };
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--test-seed', '2'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
    expect(r.status, r.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'out', 'release.csv'), 'utf8').trim().split('\r\n');
    const age = lines[0]!.split(',').indexOf('age');
    const ages = new Set(lines.slice(1).map((l) => l.split(',')[age]!));
    // Adult's ages 17 … 90 rounded down to multiples of 5: 15, 20, …, 90.
    expect([...ages].map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => 15 + 5 * i));
  });

  it('refuses bases that do not nest, naming the hierarchy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-rounding-'));
    const job = { version: 1, input: { path: resolve('resources/adult/adult.csv'), delimiter: ';', missing: ['', '?'] }, attributes: {}, method: { type: 'partitioned-recoding', parts: 1, model: { type: 'k-anonymity', k: 2 }, hierarchies: { age: { type: 'rounding', bases: [5, 12] } }, levels: { age: 1 } }, output: { dir: 'out' } };
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
    const r = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'job.json')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/method\.hierarchies\.age.*rounding base 12 must be a larger multiple of 5/s);
  });
});
