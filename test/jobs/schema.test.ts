import { describe, expect, it } from 'vitest';
import { JobError } from '../../src/jobs/job-error.js';
import { parseJob } from '../../src/jobs/load-job.js';

const base = {
  version: 1,
  input: { path: 'data.csv' },
  attributes: { occupation: 'sensitive' },
  method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 },
};

function errorOf(job: unknown): JobError {
  try {
    parseJob(job, '/tmp');
  } catch (error) {
    if (error instanceof JobError) return error;
    throw error;
  }
  throw new Error('expected the job to be rejected');
}

describe('job schema v1', () => {
  it('accepts a valid job and fills defaults', () => {
    const { job } = parseJob(base, '/tmp');
    expect(job.method.type).toBe('reconstruction-privacy');
    if (job.method.type === 'reconstruction-privacy') {
      expect(job.method.bound).toBe('simplified');
      expect(job.method.strict).toBe(true);
    }
    expect(job.output.formats).toEqual(['csv', 'xlsx']);
    expect(job.input.missing).toEqual(['']);
  });

  it('names unknown keys at any depth', () => {
    expect(errorOf({ ...base, extra: 1 }).message).toMatch(/unknown key "extra"/);
    expect(errorOf({ ...base, method: { ...base.method, retension: 0.4 } }).message).toMatch(/method: unknown key "retension"/);
    expect(errorOf({ ...base, input: { ...base.input, delimeter: ';' } }).key).toBe('input');
  });

  it('names out-of-range parameters', () => {
    const e = errorOf({ ...base, method: { ...base.method, retention: 1.2 } });
    expect(e.key).toBe('method.retention');
    expect(e.message).toMatch(/retention must be < 1/);
    expect(errorOf({ ...base, method: { ...base.method, delta: 0 } }).key).toBe('method.delta');
    expect(errorOf({ ...base, method: { ...base.method, epsilon: -1 } }).key).toBe('method.epsilon');
    expect(errorOf({ ...base, version: 2 }).message).toMatch(/version must be 1/);
    expect(errorOf({ ...base, attributes: { occupation: 'secret' } }).key).toBe('attributes.occupation');
  });

  it('uniform perturbation takes a retention or a ρ pair, not both', () => {
    const up = { ...base, method: { type: 'uniform-perturbation', retention: 0.5 } };
    expect(parseJob(up, '/tmp').job.method.type).toBe('uniform-perturbation');
    expect(parseJob({ ...up, method: { type: 'uniform-perturbation', rho1: 0.1, rho2: 0.5 } }, '/tmp').job.method.type).toBe('uniform-perturbation');
    expect(errorOf({ ...up, method: { type: 'uniform-perturbation', retention: 0.5, rho1: 0.1, rho2: 0.5 } }).key).toBe('method.retention');
    expect(errorOf({ ...up, method: { type: 'uniform-perturbation', rho1: 0.1 } }).key).toBe('method.rho2');
    expect(errorOf({ ...up, method: { type: 'uniform-perturbation', rho1: 0.5, rho2: 0.1 } }).message).toMatch(/rho2 must be greater/);
  });

  it('explains unknown and not-yet-available methods', () => {
    expect(errorOf({ ...base, method: { type: 'beta-privacy' } }).message).toMatch(/not available in this version yet/);
    expect(errorOf({ ...base, method: { type: 'magic' } }).message).toMatch(/unknown method "magic"/);
  });

  it('rejects unsupported encodings and report formats with their key', () => {
    expect(errorOf({ ...base, input: { path: 'x', encoding: 'ebcdic' } }).key).toBe('input.encoding');
    expect(errorOf({ ...base, output: { report: ['pdf'] } }).key).toBe('output.report');
  });
});
