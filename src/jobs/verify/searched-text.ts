/**
 * A text searched for every fact in turn, with the forms the tests need made once: a release of a
 * million rows is a hundred megabytes of text to collapse or lower-case, once per fact otherwise.
 */
export class SearchedText {
  #flat: string | undefined;
  #lower: string | undefined;
  #lowerUnseparated: string | undefined;
  constructor(readonly raw: string) {}
  /** Runs of white space as one space. */
  get flat(): string {
    return (this.#flat ??= collapse(this.raw));
  }
  get lower(): string {
    return (this.#lower ??= this.raw.toLowerCase());
  }
  /** Lower case without white space, colons or hyphens (a hash printed in groups). */
  get lowerUnseparated(): string {
    return (this.#lowerUnseparated ??= replaceRuns(this.lower, (code) => code === 0x3a || code === 0x2d || isWhiteSpace(code), ''));
  }
}

/** Whether a UTF-16 code unit is white space as a regular expression's \s means it. */
export function isWhiteSpace(code: number): boolean {
  return (code >= 0x09 && code <= 0x0d) || code === 0x20 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/**
 * The text with each run of characters `inRun` accepts replaced by `by` (a run that already is `by`
 * is left as it is), joined a few thousand pieces at a time: a regular-expression replace over a
 * text with millions of matches (a 200 MB file of "a ") ran out of heap.
 */
export function replaceRuns(text: string, inRun: (code: number) => boolean, by: string): string {
  const pieces: string[] = [];
  const joined: string[] = [];
  let copied = 0;
  for (let i = 0; i < text.length; ) {
    if (!inRun(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && inRun(text.charCodeAt(j))) j++;
    if (j - i !== by.length || !text.startsWith(by, i)) {
      pieces.push(text.slice(copied, i), by);
      copied = j;
      if (pieces.length >= 8192) joined.push(pieces.splice(0).join(''));
    }
    i = j;
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  joined.push(pieces.join(''));
  return joined.join('');
}

export const collapse = (text: string): string => replaceRuns(text, isWhiteSpace, ' ');
