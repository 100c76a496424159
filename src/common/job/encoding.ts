export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DetectedEncoding {
  readonly encoding: TextEncoding;
  readonly bom: boolean;
}

/** Normalizes the spellings people use ("UTF8", "latin1", "cp1252") to a supported encoding. */
export function normalizeEncoding(name: string): TextEncoding | undefined {
  const key = name.trim().toLowerCase().replace(/[_\s]/g, '-');
  const aliases: Record<string, TextEncoding> = {
    'utf-8': 'utf-8', utf8: 'utf-8', 'utf-16le': 'utf-16le', 'utf-16-le': 'utf-16le', utf16le: 'utf-16le', 'utf-16': 'utf-16le',
    'utf-16be': 'utf-16be', 'utf-16-be': 'utf-16be', utf16be: 'utf-16be', 'windows-1252': 'windows-1252', cp1252: 'windows-1252',
    'cp-1252': 'windows-1252', latin1: 'windows-1252', 'latin-1': 'windows-1252', 'iso-8859-1': 'windows-1252',
  };
  return aliases[key];
}

/**
 * Byte-order marks decide; otherwise zero bytes betray UTF-16, and text that
 * is not valid UTF-8 is taken as Windows-1252 (the usual legacy export).
 */
export function detectEncoding(head: Uint8Array): DetectedEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: true };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: true };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: true };
  const sample = head.subarray(0, Math.min(head.length, 4096));
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) evenZeros++;
    else oddZeros++;
  }
  if (oddZeros > sample.length / 8 && evenZeros === 0) return { encoding: 'utf-16le', bom: false };
  if (evenZeros > sample.length / 8 && oddZeros === 0) return { encoding: 'utf-16be', bom: false };
  return { encoding: isValidUtf8Prefix(head) ? 'utf-8' : 'windows-1252', bom: false };
}

function isValidUtf8Prefix(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
