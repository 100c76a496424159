import { serveCsvChunk } from '../io/input/csv-chunk.js';
import { serveUtilityWork } from './method-kit/utility-helper.js';
import { serveRiskProfile } from './review/risk-profile-helper.js';
import { serveWorkbookSheets } from './workbook-sheets-helper.js';
import { unhandledEntry, type HelperWorkerData } from './worker-protocol.js';

/** A run's helper entries, served alike by the helpers' script (helper-worker.ts) and by the job worker's. */
export function serveHelperEntry(request: Exclude<HelperWorkerData, { command: 'warm' }>): void {
  switch (request.command) {
    case 'utility-helper':
      serveUtilityWork(request);
      break;
    case 'csv-chunk':
      serveCsvChunk(request);
      break;
    case 'risk-profile-helper':
      serveRiskProfile(request);
      break;
    case 'workbook-sheets-helper':
      serveWorkbookSheets(request);
      break;
    default:
      unhandledEntry(request);
  }
}
