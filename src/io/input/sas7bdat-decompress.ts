/**
 * The two ways SAS compresses the rows of a data set, each row on its own:
 * COMPRESS=CHAR (run-length encoding, "SASYZCRL") and COMPRESS=BINARY (Ross Data Compression,
 * "SASYZCR2"). Written from the published descriptions: the RLE command table of M. Shotwell and
 * C. Cummins ("SAS7BDAT Database Binary Format", R package sas7bdat) with the two commands ReadStat
 * and pandas found since (InsertByte18, Insert@17), and Ed Ross's RDC as pandas' reader decodes it.
 *
 * A row comes from a file that may be damaged or crafted: every command is checked against both the
 * input and the row's length, so bad data is refused (RangeError, reported by the caller as a
 * damaged file) instead of reading or writing out of bounds.
 */

function damaged(what: string): RangeError {
  return new RangeError(`${what} in a compressed row`);
}

/** Decodes one RLE-compressed row; the result must be exactly `rowLength` bytes. */
export function rleDecompress(input: Uint8Array, rowLength: number): Uint8Array {
  const output = new Uint8Array(rowLength);
  let at = 0;
  let out = 0;
  const next = (): number => {
    if (at >= input.length) throw damaged('a command runs past the end of its data');
    return input[at++]!;
  };
  const copy = (count: number): void => {
    if (at + count > input.length) throw damaged('a copy runs past the end of its data');
    if (out + count > rowLength) throw damaged('the data is longer than a row');
    output.set(input.subarray(at, at + count), out);
    at += count;
    out += count;
  };
  const insert = (count: number, byte: number): void => {
    if (out + count > rowLength) throw damaged('the data is longer than a row');
    output.fill(byte, out, out + count);
    out += count;
  };
  while (at < input.length) {
    const control = input[at++]!;
    const command = control >> 4;
    const length = control & 0x0f;
    switch (command) {
      case 0x0: // Copy64: the next byte and the low bits count 64 to 4159 literal bytes
        copy(next() + 64 + length * 256);
        break;
      case 0x4: {
        // InsertByte18: a count byte, then the byte to repeat
        const count = next() + 18 + length * 256;
        insert(count, next());
        break;
      }
      case 0x5: // Insert@17
        insert(next() + 17 + length * 256, 0x40);
        break;
      case 0x6: // InsertBlank17
        insert(next() + 17 + length * 256, 0x20);
        break;
      case 0x7: // InsertZero17
        insert(next() + 17 + length * 256, 0x00);
        break;
      case 0x8: // Copy1
        copy(length + 1);
        break;
      case 0x9: // Copy17
        copy(length + 17);
        break;
      case 0xa: // Copy33
        copy(length + 33);
        break;
      case 0xb: // Copy49
        copy(length + 49);
        break;
      case 0xc: // InsertByte3
        insert(length + 3, next());
        break;
      case 0xd: // Insert@2
        insert(length + 2, 0x40);
        break;
      case 0xe: // InsertBlank2
        insert(length + 2, 0x20);
        break;
      case 0xf: // InsertZero2
        insert(length + 2, 0x00);
        break;
      default:
        throw damaged(`unknown RLE command ${command}`);
    }
  }
  if (out !== rowLength) throw damaged(`the data makes ${out} bytes where a row has ${rowLength}`);
  return output;
}

/**
 * Decodes one RDC-compressed row. A 16-bit control word (most significant bit first) says for each
 * of the next 16 items whether it is a literal byte (0) or a command (1); a command's high nibble
 * is its kind: 0 short run, 1 long run, 2 long copy from earlier output, 3–15 a copy of that many
 * bytes from earlier output.
 */
export function rdcDecompress(input: Uint8Array, rowLength: number): Uint8Array {
  const output = new Uint8Array(rowLength);
  let at = 0;
  let out = 0;
  let controlBits = 0;
  let controlMask = 0;
  const next = (): number => {
    if (at >= input.length) throw damaged('a command runs past the end of its data');
    return input[at++]!;
  };
  const run = (count: number, byte: number): void => {
    if (out + count > rowLength) throw damaged('the data is longer than a row');
    output.fill(byte, out, out + count);
    out += count;
  };
  const copyBack = (offset: number, count: number): void => {
    if (offset > out) throw damaged('a copy reaches before the start of the row');
    if (out + count > rowLength) throw damaged('the data is longer than a row');
    // Byte by byte: source and destination may overlap (a pattern repeating itself).
    for (let k = 0; k < count; k++, out++) output[out] = output[out - offset]!;
  };
  while (at < input.length) {
    controlMask >>>= 1;
    if (controlMask === 0) {
      controlBits = (next() << 8) | next();
      controlMask = 0x8000;
      // A control word at the very end announces nothing more.
      if (at >= input.length) break;
    }
    if ((controlBits & controlMask) === 0) {
      if (out >= rowLength) throw damaged('the data is longer than a row');
      output[out++] = next();
      continue;
    }
    const command = input[at]! >> 4;
    const count = input[at]! & 0x0f;
    at++;
    if (command === 0) {
      run(count + 3, next());
    } else if (command === 1) {
      const length = count + (next() << 4) + 19;
      run(length, next());
    } else if (command === 2) {
      const offset = count + 3 + (next() << 4);
      copyBack(offset, next() + 16);
    } else {
      const offset = count + 3 + (next() << 4);
      copyBack(offset, command);
    }
  }
  if (out !== rowLength) throw damaged(`the data makes ${out} bytes where a row has ${rowLength}`);
  return output;
}
