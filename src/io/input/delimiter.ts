export const DELIMITER_CANDIDATES = [',', ';', '\t', '|'] as const;

/**
 * Picks the candidate that splits the first lines into the same, largest
 * number of fields, counting only separators outside quotes.
 */
export function sniffDelimiter(text: string): string {
  const lines = splitLogicalLines(text, 50);
  let best: string = DELIMITER_CANDIDATES[0];
  let bestScore = -1;
  for (const candidate of DELIMITER_CANDIDATES) {
    const counts = lines.map((line) => countOutsideQuotes(line, candidate));
    if (counts.length === 0 || counts[0] === 0) continue;
    const first = counts[0]!;
    const consistent = counts.filter((c) => c === first).length / counts.length;
    const score = consistent * 1000 + first;
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

function splitLogicalLines(text: string, limit: number): string[] {
  const lines: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length && lines.length < limit; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if ((c === '\n' || c === '\r') && !quoted) {
      if (i > start) lines.push(text.slice(start, i));
      start = i + 1;
    }
  }
  // The last line of a sample is usually cut short; use it only when alone.
  if (lines.length === 0 && start < text.length) lines.push(text.slice(start));
  return lines;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let quoted = false;
  let count = 0;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === delimiter && !quoted) count++;
  }
  return count;
}
