import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppInfo } from '../common/ipc/api.js';
import { AppSession, InvalidRequest } from './session.js';
import { OpenAccess } from './path-access.js';

const here = dirname(fileURLToPath(import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.map': 'application/json', '.json': 'application/json', '.csv': 'text/csv; charset=utf-8', '.pdf': 'application/pdf',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '.svg': 'image/svg+xml', '.png': 'image/png',
};

/** The app's CSP: its own scripts and styles only, no remote origin, requests to this host only. */
export const WEB_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * A path segment with its percent-escapes decoded, or undefined when an escape is malformed
 * (`%E0%A4%A`): decodeURIComponent throws a URIError there, which in a request handler would
 * end the process and every job in flight.
 */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export interface DevHost {
  readonly server: Server;
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

/**
 * Serves the renderer and the same IPC handlers as the desktop app over
 * loopback only, on a random port, with a per-run token the page receives in
 * its URL fragment (never sent in requests for assets, never logged).
 */
export async function startDevHost(options: { rendererDir: string; samplePath: string; version: string; port?: number }): Promise<DevHost> {
  const token = randomBytes(24).toString('hex');
  const info: AppInfo = { version: options.version, host: 'web', samplePath: options.samplePath, sampleName: 'Adult (UCI, 30,162 records)' };
  const session = new AppSession({
    info,
    workerUrl: new URL('./job-worker.mjs', import.meta.url),
    baseDir: process.cwd(),
    // A local development tool, like the CLI: the person at the keyboard may type any path.
    access: new OpenAccess(),
    chooseFile: async () => null,
    chooseFolder: async () => null,
    revealFolder: async () => undefined,
  });
  session.warmUp();
  let origin = '';
  const send = (res: ServerResponse, status: number, body: string | Buffer, type = 'application/json'): void => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': WEB_CSP, 'Referrer-Policy': 'no-referrer' });
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // DNS-rebinding guard: only this exact loopback origin is served.
    if (req.headers.host !== origin.replace('http://', '')) return send(res, 421, '{"error":"wrong host"}');
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.startsWith('/api/')) {
      if (req.method !== 'POST' || req.headers['x-custos-token'] !== token) return send(res, 403, '{"error":"forbidden"}');
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > 4 << 20) req.destroy();
        else chunks.push(c);
      });
      req.on('end', () => {
        let payload: unknown;
        try {
          payload = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        } catch {
          return send(res, 400, JSON.stringify({ error: 'invalid JSON' }));
        }
        const channel = decodedSegment(url.pathname.slice(5));
        if (channel === undefined) return send(res, 400, JSON.stringify({ error: 'malformed percent-escape in the path' }));
        session
          .dispatch(channel, payload)
          .then((value) => send(res, 200, JSON.stringify({ value: value ?? null }, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))))
          .catch((error: unknown) => send(res, error instanceof InvalidRequest ? 400 : 500, JSON.stringify({ error: error instanceof Error ? error.message : String(error) })));
      });
      return;
    }
    if (url.pathname.startsWith('/files/')) {
      if (url.searchParams.get('token') !== token) return send(res, 403, 'forbidden', 'text/plain');
      const [, , id, name] = url.pathname.split('/');
      const output = id ? session.outputOf(id) : undefined;
      const file = name ? decodedSegment(name) : '';
      if (file === undefined) return send(res, 400, 'malformed percent-escape in the path', 'text/plain');
      if (!output || !output.files.includes(file)) return send(res, 404, 'not found', 'text/plain');
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        'X-Content-Type-Options': 'nosniff',
        ...(url.searchParams.has('download') ? { 'Content-Disposition': `attachment; filename="${file}"` } : {}),
      });
      createReadStream(join(output.dir, file)).pipe(res);
      return;
    }
    const relative = url.pathname === '/' ? 'index.html' : normalize(url.pathname).replace(/^[/\\]+/, '');
    const target = resolve(options.rendererDir, relative);
    if (!target.startsWith(resolve(options.rendererDir)) || !existsSync(target) || !statSync(target).isFile()) return send(res, 404, 'not found', 'text/plain');
    send(res, 200, readFileSync(target), TYPES[extname(target)] ?? 'application/octet-stream');
  });
  await new Promise<void>((ok) => server.listen(options.port ?? 0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  return {
    server,
    url: `${origin}/#token=${token}`,
    token,
    close: async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      await session.close();
    },
  };
}

/** `npm run dev:web`: serve the built renderer next to this bundle. */
export async function main(): Promise<void> {
  const root = resolve(here, '..', '..');
  const host = await startDevHost({
    rendererDir: join(root, 'dist', 'renderer'),
    samplePath: join(root, 'resources', 'adult', 'adult.csv'),
    version: process.env.CUSTOS_VERSION ?? '0.1.0',
    ...(process.env.CUSTOS_PORT ? { port: Number(process.env.CUSTOS_PORT) } : {}),
  });
  process.stdout.write(`Custos is running on loopback only. Open:\n  ${host.url}\n(Ctrl-C to stop)\n`);
}
