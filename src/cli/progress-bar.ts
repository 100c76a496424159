import { overallFraction } from '../common/progress.js';
import type { ProgressEvent } from '../jobs/progress.js';

/**
 * A one-line bar on a stream, drawn only when it is a terminal: a label, the bar and the percentage,
 * redrawn in place when the line changes.
 */
export function terminalBar(stream: NodeJS.WriteStream, labelWidth: number): { draw(label: string, fraction: number): void; clear(): void } {
  const enabled = stream.isTTY === true;
  const width = 28;
  let last = '';
  return {
    draw(label, fraction) {
      if (!enabled) return;
      const filled = Math.round(fraction * width);
      const line = `${label.padEnd(labelWidth)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(fraction * 100)}%`;
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

/** The progress bar of a job on stderr: the whole run, the stage named, never moving back. */
export function progressBar(stream: NodeJS.WriteStream): { update(event: ProgressEvent): void; clear(): void } {
  const bar = terminalBar(stream, 30);
  let shown = 0;
  return {
    update(event) {
      shown = Math.max(shown, overallFraction(event.stage, event.fraction));
      bar.draw(event.label, shown);
    },
    clear: () => bar.clear(),
  };
}
