#!/usr/bin/env node
// The command line's entry: small on purpose. A job's worker thread loads its script (about a fifth
// of a second of a core) from the first moment, while this thread loads the rest of the command
// line (custos.ts, as large); the job then runs on that thread (spawnWorker takes it) instead of
// starting one only after both loads, one after the other.
import { jobWorkerBeside } from '../jobs/bundled-scripts.js';
import { prestartWorker } from '../io/worker-script.js';
import { JOB_TASK } from '../jobs/worker-protocol.js';

const command = process.argv[2];
if (command === 'run' || command === 'assess' || command === 'compare') prestartWorker(jobWorkerBeside(import.meta.url), JOB_TASK);
await import('./custos.js');
