import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

// main and preload are bundled for Node/Electron; the renderer is a plain Vite web build.
export default defineConfig({
  // The job worker is bundled beside main so jobs run off the main thread.
  main: { build: { rollupOptions: { input: { index: resolve('src/main/index.ts'), 'job-worker': resolve('src/jobs/job-worker.ts') } } } },
  // A sandboxed preload must be CommonJS.
  preload: { build: { rollupOptions: { input: resolve('src/preload/index.ts'), output: { format: 'cjs', entryFileNames: '[name].cjs' } } } },
  renderer: { root: resolve('src/renderer'), build: { rollupOptions: { input: resolve('src/renderer/index.html') } } },
});
