import { serveCsvChunk } from '../io/input/csv-chunk.js';
import { serveUtilityWork } from './method-kit/utility-helper.js';
import { serveRiskProfile } from './review/risk-profile-helper.js';
import { serveWorkbookSheets } from './workbook-sheets-helper.js';
import { unhandledEntry, type HelperWorkerData } from './worker-protocol.js';

/**
 * A run's helper entries, served alike by the helpers' script (helper-worker.ts) and by the job
 * worker's. True when the thread then waits for its next start data, as a thread started ahead does:
 * a file's part, read when the entry returns, whose reader keeps the thread for the run's next helper.
 */
export function serveHelperEntry(request: Exclude<HelperWorkerData, { command: 'warm' }>): boolean {
  switch (request.command) {
    case 'utility-helper':
      serveUtilityWork(request);
      break;
    case 'csv-chunk':
      serveCsvChunk(request);
      return request.waitAfter;
    case 'risk-profile-helper':
      serveRiskProfile(request);
      break;
    case 'workbook-sheets-helper':
      serveWorkbookSheets(request);
      break;
    default:
      unhandledEntry(request);
  }
  return false;
}
