import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The built loopback dev host (dist/cli/dev-host.mjs, built by the global setup), as `npm run dev:web` starts it. */
let child: ChildProcess;
let origin = '';
let token = '';
let exited: number | null | undefined;

beforeAll(async () => {
  child = spawn(process.execPath, [resolve('dist/cli/dev-host.mjs')], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CUSTOS_PORT: '' } });
  child.on('exit', (code) => (exited = code));
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`dev host did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += String(d);
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]+/.exec(out);
      if (match) {
        clearTimeout(timer);
        ok(match[0]);
      }
    });
    child.on('exit', (code) => fail(new Error(`dev host exited (${code}): ${out}`)));
  });
  origin = new URL(url).origin;
  token = new URL(url).hash.replace('#token=', '');
}, 30_000);

afterAll(() => {
  child.kill();
});

/** A request with its path sent as written (no URL parser in between to re-encode it). */
function send(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const { hostname, port } = new URL(origin);
    const req = request({ hostname, port, method, path, headers: { 'x-custos-token': token, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += String(d)));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('the loopback dev host against malformed percent-escapes', () => {
  it('answers 400 to a malformed escape in an API channel or a file name, and keeps serving', async () => {
    const api = await send('POST', '/api/%E0%A4%A', '{}');
    expect(api.status).toBe(400);
    expect(api.body).toMatch(/percent-escape/);
    const file = await send('GET', `/files/x/%E0%A4%A?token=${token}`);
    expect(file.status).toBe(400);
    const lone = await send('GET', `/files/x/%ZZ?token=${token}`);
    expect(lone.status).toBe(400);
    // Still alive: a well-formed request is answered, and the process has not exited.
    const info = await send('POST', `/api/${encodeURIComponent('custos:app-info')}`, '{}');
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toMatchObject({ value: { host: 'web' } });
    expect(exited).toBeUndefined();
  }, 30_000);
});
