import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

// main and preload are bundled for Electron here; the renderer is the same esbuild bundle the
// loopback dev host serves (dist/renderer, built by scripts/build-cli.mjs), so both doors show one app.
export default defineConfig({
  // The job worker is bundled beside main so jobs run off the main thread.
  main: { build: { rollupOptions: { input: { index: resolve('src/main/index.ts'), 'job-worker': resolve('src/jobs/job-worker.ts'), 'helper-worker': resolve('src/jobs/helper-worker.ts') } } } },
  // A sandboxed preload must be CommonJS.
  preload: { build: { rollupOptions: { input: resolve('src/preload/index.ts'), output: { format: 'cjs', entryFileNames: '[name].cjs' } } } },
});
