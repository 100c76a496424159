import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { riskProfile, type KnownClasses, type ProfileColumn, type ProfileOptions, type RiskProfile } from '../../common/risk/risk-profile.js';
import { startHelperThread, type WorkerScript } from '../../io/worker-script.js';

/**
 * The release's risk profile (internal report only) on a helper thread while the release folder is
 * written: at 1M records it is seconds of work the run otherwise did after the last file, on one
 * thread. The columns are gathered on the job's thread and handed over (in shared memory, not copied);
 * the profile is a function of them alone, so the report is the same wherever it is computed.
 */

/** What the helper is started with (the job worker's `risk-profile-helper` entry). */
export interface RiskProfileHelperData {
  readonly command: 'risk-profile-helper';
  readonly columns: readonly ProfileColumn[];
  readonly records: number;
  readonly options: ProfileOptions;
  /** The records' classes, as the run's review grouped them (ids in shared memory). */
  readonly classes?: KnownClasses;
  readonly port: MessagePort;
  /** Set to 1 once the result is posted, so the job's thread can wait without an event loop. */
  readonly posted: SharedArrayBuffer;
}

type HelperReply = { readonly ok: true; readonly profile: RiskProfile } | { readonly ok: false; readonly message: string };

/** The helper's side: compute, post, flag. */
export function serveRiskProfile(data: RiskProfileHelperData): void {
  let reply: HelperReply;
  try {
    reply = { ok: true, profile: riskProfile(data.columns, data.records, data.options, data.classes) };
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  data.port.postMessage(reply);
  const flag = new Int32Array(data.posted);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

/** What a thread started ahead for the risk profile is named by (prestartWorker). */
export const RISK_PROFILE_HELPER = 'risk-profile-helper';

export interface PendingProfile {
  /** The profile, waiting for the helper if it is still working (computed here when no helper runs). */
  settle(): RiskProfile;
  /** Stops the helper (a run that failed no longer needs it). */
  close(): void;
}

/**
 * Starts the profile on a helper thread running `helperScript` (the job worker's own script); without
 * one, or when it cannot start, the profile is computed here when settled, as before. `classes`: the
 * records' classes as the review grouped them (riskProfile's `classes`), so they are not grouped twice.
 */
export function startRiskProfile(helperScript: WorkerScript | undefined, columns: readonly ProfileColumn[], records: number, options: ProfileOptions, classes?: KnownClasses): PendingProfile {
  const here = (): PendingProfile => {
    let profile: RiskProfile | undefined;
    return { settle: () => (profile ??= riskProfile(columns, records, options, classes)), close: () => undefined };
  };
  if (!helperScript) return here();
  const posted = new SharedArrayBuffer(4);
  const flag = new Int32Array(posted);
  // The codes are the run's gathered codes (in shared memory: the helper reads the same arrays; a
  // column the release holds directly is copied), never moved: the writers read them after. The
  // weights are this run's own copy: moved, not copied.
  const weights = options.weights?.values;
  const moved = weights && ArrayBuffer.isView(weights) && weights.buffer instanceof ArrayBuffer ? [weights.buffer] : [];
  const helper = startHelperThread(helperScript, (port) => ({ command: 'risk-profile-helper', columns, records, options, ...(classes ? { classes: sharedClasses(classes) } : {}), port, posted }) satisfies RiskProfileHelperData, moved, RISK_PROFILE_HELPER);
  if (!helper) return here();
  const { port: port1, close } = helper;
  let settled: RiskProfile | undefined;
  return {
    settle: () => {
      if (settled) return settled;
      try {
        for (;;) {
          const got = receiveMessageOnPort(port1);
          if (got) {
            const reply = got.message as HelperReply;
            if (!reply.ok) throw new Error(`the risk profile failed: ${reply.message}`);
            return (settled = reply.profile);
          }
          // Woken when the helper has posted; the time limit only guards against a helper that died.
          if (Atomics.wait(flag, 0, 0, 600_000) === 'timed-out') throw new Error('the risk profile helper stopped answering');
        }
      } finally {
        close();
      }
    },
    close,
  };
}

/** The class ids in shared memory (the review reads its own copy meanwhile): 4 bytes a record, copied once. */
function sharedClasses(classes: KnownClasses): KnownClasses {
  if (typeof SharedArrayBuffer !== 'function' || classes.ids.buffer instanceof SharedArrayBuffer) return classes;
  const ids = new Int32Array(new SharedArrayBuffer(classes.ids.byteLength));
  ids.set(classes.ids);
  return { ids, count: classes.count };
}
