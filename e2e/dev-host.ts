import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** Starts the built loopback dev host (as `npm run dev:web` does) and returns its tokenized URL. */
export async function startHost(): Promise<{ url: string; origin: string; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, [resolve('dist/cli/dev-host.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`dev host did not start: ${out}`)), 10_000);
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
  return { url, origin: new URL(url).origin, stop: () => child.kill() };
}
