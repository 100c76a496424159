import { overallFraction } from '../common/progress.js';
import type { ProgressEvent } from '../jobs/progress.js';

/** A one-line progress bar on stderr, drawn only when stderr is a terminal: the whole run, the stage named, never moving back. */
export function progressBar(stream: NodeJS.WriteStream): { update(event: ProgressEvent): void; clear(): void } {
  const enabled = stream.isTTY === true;
  let last = '';
  let shown = 0;
  return {
    update(event) {
      if (!enabled) return;
      const width = 28;
      shown = Math.max(shown, overallFraction(event.stage, event.fraction));
      const filled = Math.round(shown * width);
      const line = `${event.label.padEnd(30)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(shown * 100)}%`;
      if (line === last) return;
      last = line;
      stream.write(`\r${line}`);
    },
    clear() {
      if (enabled && last) stream.write(`\r${' '.repeat(last.length)}\r`);
      last = '';
    },
  };
}
