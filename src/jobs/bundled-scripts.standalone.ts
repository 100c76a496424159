import { getAsset } from 'node:sea';
import type { WorkerScript } from '../io/worker-script.js';

// In the single-file executable one bundle is the command line, the job worker and the helper:
// its source is embedded as an asset and each thread runs it with `eval`.
let source: string | undefined;
function embedded(): WorkerScript {
  return { source: (source ??= getAsset('custos.cjs', 'utf8')) };
}

export function jobWorkerBeside(_bundleUrl: string): WorkerScript {
  return embedded();
}

export function thisBundle(_bundleUrl: string): WorkerScript {
  return embedded();
}

export function helperWorkerBeside(_bundleUrl: string): WorkerScript {
  return embedded();
}
