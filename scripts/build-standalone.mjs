// Builds the command line as one executable for this platform with Node's single-executable
// applications (SEA): the whole program bundled into one CommonJS file (workers run it with eval),
// the DejaVu fonts of the PDF report as assets, injected into a copy of this Node binary with
// postject. The result runs `custos run`, `assess`, `verify`, `inspect` and `init` on a machine with
// no Node and no node_modules: dist/standalone/custos (custos.exe on Windows).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { inject } from 'postject';

const require = createRequire(import.meta.url);
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const out = join(root, 'dist', 'standalone');
const quiet = process.argv.includes('--quiet');
const log = (message) => quiet || console.error(message);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const started = Date.now();

/** A module `X.ts` with a sibling `X.standalone.ts` is replaced by it: what differs without files beside the program. */
const standaloneSubstitutes = {
  name: 'standalone-substitutes',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      const substitute = target.replace(/\.tsx?$/, '.standalone.ts');
      return substitute !== target && existsSync(substitute) ? { path: substitute } : undefined;
    });
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const bundle = join(out, 'custos.cjs');
await build({
  entryPoints: [join(root, 'src/cli/standalone.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  plugins: [standaloneSubstitutes],
  // Nothing in the standalone graph resolves files against its own location; the URL only has to parse.
  define: { __CUSTOS_VERSION__: JSON.stringify(version), 'import.meta.url': '"file:///custos-standalone/custos.cjs"' },
  logLevel: quiet ? 'error' : 'warning',
});

const fonts = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const config = join(out, 'sea-config.json');
const blob = join(out, 'sea-prep.blob');
writeFileSync(config, JSON.stringify({
  main: bundle,
  output: blob,
  disableExperimentalSEAWarning: true,
  assets: {
    'custos.cjs': bundle,
    'DejaVuSans.ttf': join(fonts, 'DejaVuSans.ttf'),
    'DejaVuSans-Bold.ttf': join(fonts, 'DejaVuSans-Bold.ttf'),
    'DejaVuSansMono.ttf': join(fonts, 'DejaVuSansMono.ttf'),
  },
}, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: quiet ? 'ignore' : 'inherit' });

const executable = join(out, process.platform === 'win32' ? 'custos.exe' : 'custos');
const partial = `${executable}.partial`;
copyFileSync(process.execPath, partial);
chmodSync(partial, 0o755);
if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', partial]);
// postject's ELF library warns about note sections it does not know (harmless); --quiet keeps them out of test logs.
const warn = console.warn;
if (quiet) console.warn = () => undefined;
try {
  await inject(partial, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
} finally {
  console.warn = warn;
}
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', partial]);
renameSync(partial, executable);
rmSync(blob);
log(`built ${executable} (Node ${process.versions.node}, ${process.platform}-${process.arch}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
