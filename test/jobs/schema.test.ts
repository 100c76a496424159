import { describe, expect, it } from 'vitest';
import { JobError } from '../../src/common/job/job-error.js';
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

  it('explains unknown methods and names missing parameters', () => {
    expect(errorOf({ ...base, method: { type: 'dp-counts' } }).message).toMatch(/method\.epsilon: Required/);
    expect(errorOf({ ...base, method: { type: 'magic' } }).message).toMatch(/unknown method "magic"/);
  });

  it('β-privacy: thresholds are numbers or exact fractions in (0, 1], by default or by coefficient', () => {
    const beta = (b: unknown) => ({ ...base, method: { type: 'beta-privacy', beta: b } });
    expect(parseJob(beta({ default: 0.3, values: { HIV: '1/20' } }), '/tmp').job.method.type).toBe('beta-privacy');
    expect(parseJob(beta({ coefficient: 8 }), '/tmp').job.method.type).toBe('beta-privacy');
    expect(errorOf(beta({ default: 1.5 })).message).toMatch(/method\.beta\.default: β must lie in \(0, 1\]/);
    expect(errorOf(beta({ default: 0.3, values: { HIV: 'abc' } })).message).toMatch(/method\.beta\.values\.HIV: "abc" is not a number/);
    expect(errorOf(beta({ coefficient: -2 })).message).toMatch(/coefficient must be a positive number/);
    expect(errorOf(beta(undefined)).message).toMatch(/method\.beta/);
    expect(errorOf({ ...base, method: { type: 'beta-privacy', beta: { coefficient: 4 }, maxBucket: 0 } }).key).toBe('method.maxBucket');
  });

  it('rejects unsupported encodings and report formats with their key', () => {
    expect(errorOf({ ...base, input: { path: 'x', encoding: 'ebcdic' } }).key).toBe('input.encoding');
    expect(errorOf({ ...base, output: { report: ['docx'] } }).key).toBe('output.report[0]');
  });
});
