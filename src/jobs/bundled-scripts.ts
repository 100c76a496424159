import type { WorkerScript } from '../io/worker-script.js';

// The standalone build replaces this module with bundled-scripts.standalone.ts (scripts/build-standalone.mjs).

/** The job worker, bundled beside the bundle whose `import.meta.url` is given (dist/cli/). */
export function jobWorkerBeside(bundleUrl: string): WorkerScript {
  return new URL('./job-worker.mjs', bundleUrl);
}

/** The running bundle itself, for a script that also serves helper threads. */
export function thisBundle(bundleUrl: string): WorkerScript {
  return new URL(bundleUrl);
}

/**
 * The helpers' script (helper-worker.ts), bundled beside the bundle whose `import.meta.url` is given,
 * with that bundle's extension (the command line's .mjs, the desktop build's .js; a module run from
 * its source finds the helpers' source beside it, as thisBundle finds its own).
 */
export function helperWorkerBeside(bundleUrl: string): WorkerScript {
  const extension = /\.[cm]?[jt]s$/.exec(new URL(bundleUrl).pathname)?.[0] ?? '.mjs';
  return new URL(`./helper-worker${extension}`, bundleUrl);
}
