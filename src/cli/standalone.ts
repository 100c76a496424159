import { isMainThread } from 'node:worker_threads';

// The single-file executable is one bundle (scripts/build-standalone.mjs): its main thread is the
// command line, and every other thread it starts runs this same source as the job worker.
if (isMainThread) void import('./custos.js');
else void import('../jobs/job-worker.js');
