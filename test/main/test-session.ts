import { resolve } from 'node:path';
import { AppSession } from '../../src/main/session.js';
import { OpenAccess } from '../../src/main/path-access.js';

/** The app's session as the tests drive it: the built job worker, any path open, no dialogs. */
export function testSession(): AppSession {
  return new AppSession({
    info: { version: 'test', host: 'web', samplePath: resolve('resources/adult/adult.csv'), sampleName: 'Adult' },
    workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
    baseDir: process.cwd(),
    access: new OpenAccess(),
    chooseFile: async () => null,
    chooseFolder: async () => null,
    revealFolder: async () => undefined,
  });
}
