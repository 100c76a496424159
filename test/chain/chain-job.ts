/**
 * The chain tests' job: the hospital register (scripts/hospital-register.mjs) with its direct
 * identifiers dropped, global recoding to k = 5, then β-privacy on the diagnosis; and the command
 * line run with real randomness (a seeded test run is never publishable).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// @ts-expect-error -- a plain ES module script without types
import { hospitalRegister } from '../../scripts/hospital-register.mjs';

const CLI = resolve('dist/cli/custos.mjs');

/** Real randomness: a seeded test run is never publishable. */
const env = (): NodeJS.ProcessEnv => {
  const { CUSTOS_TEST_RANDOMNESS: _seeded, ...rest } = process.env;
  return rest;
};
export const custos = (dir: string, ...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: env() });

/** Direct identifiers dropped (id, name), the full postcode and the free-text comment removed, birth date and sex recodable. */
export const ATTRIBUTES = { patient_id: 'identifier', name: 'identifier', birth_date: 'quasi', sex: 'quasi', postcode: 'identifier', municipality: 'quasi', diagnosis: 'sensitive', length_of_stay: 'insensitive', comment: 'identifier' };
export const RECODING = { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 5 }], hierarchies: { birth_date: { type: 'date' }, sex: { type: 'masking', length: 1 } } };
export const BETA = { type: 'beta-privacy', beta: { default: '3/10' }, domains: { diagnosis: 'from-data' } };

/** The register's 400 records as register.csv: the raw text, for a test that writes the file itself. */
export const registerCsv = (records = 400): string => (hospitalRegister as (n: number) => string)(records);

/** A fresh folder with register.csv and job.json holding `method` (a chain or one method). */
export function register(method: unknown, attributes: Record<string, string> = ATTRIBUTES, input = 'register.csv'): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-chain-'));
  writeFileSync(join(dir, 'register.csv'), registerCsv());
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: input }, attributes, output: { dir: 'out', formats: ['csv'], report: ['json'] }, method }));
  return dir;
}
