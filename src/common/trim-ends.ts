/**
 * Trimming by a loop over the string's ends. A regex anchored at the end (/[ \0]+$/, /0+$/)
 * retries from every position of a run that does not reach the end, so a value of 32,000 blanks
 * before a letter took 1.7 s and one of a million hours; values come from files and can be that long.
 */

/** The string without its trailing code units that `drop` accepts. */
export function trimTrailing(value: string, drop: (code: number) => boolean): string {
  let end = value.length;
  while (end > 0 && drop(value.charCodeAt(end - 1))) end--;
  return end === value.length ? value : value.slice(0, end);
}

/** The string without its leading code units that `drop` accepts. */
export function trimLeading(value: string, drop: (code: number) => boolean): string {
  let start = 0;
  while (start < value.length && drop(value.charCodeAt(start))) start++;
  return start === 0 ? value : value.slice(start);
}

export const isBlank = (code: number): boolean => code === 0x20;
export const isBlankOrNul = (code: number): boolean => code === 0x20 || code === 0;
/** U+FFFD, what a decoder gives for bytes it cannot decode (a multi-byte character cut at a field's end). */
export const isReplacement = (code: number): boolean => code === 0xfffd;
