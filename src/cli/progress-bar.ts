import type { ProgressEvent } from '../jobs/progress.js';

/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
export function progressBar(stream: NodeJS.WriteStream): { update(event: ProgressEvent): void; clear(): void } {
  const enabled = stream.isTTY === true;
  let last = '';
  return {
    update(event) {
      if (!enabled) return;
      const width = 28;
      const filled = Math.round(Math.min(1, Math.max(0, event.fraction)) * width);
      const line = `${event.label.padEnd(30)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(event.fraction * 100)}%`;
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
