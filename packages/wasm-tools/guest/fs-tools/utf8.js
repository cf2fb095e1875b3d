// UTF-8 and base64 without TextEncoder/TextDecoder, which the QuickJS guest does not have. The
// QuickJS interpreter runs a JavaScript loop at tens of nanoseconds per step, so the common cases
// go through built-ins written in C (String.fromCharCode, RegExp, escape/decodeURIComponent,
// TypedArray.indexOf, btoa) and the per-byte loops below are only the fallbacks.

const CHUNK = 8192;
const NON_ASCII = /[\x80-\xff]/;

/** One character per byte (Latin-1): the raw bytes as a string, built in C in chunks. */
function bytesToBinary(bytes) {
  if (bytes.length <= CHUNK) return String.fromCharCode.apply(null, bytes);
  const chunks = [];
  for (let start = 0; start < bytes.length; start += CHUNK) {
    chunks.push(String.fromCharCode.apply(null, bytes.subarray(start, start + CHUNK)));
  }
  return chunks.join('');
}

/**
 * Decodes UTF-8 bytes. Invalid sequences become U+FFFD; `valid` tells whether there were any,
 * so tools that write the text back (edit) can refuse instead of corrupting the file.
 * ASCII is the Latin-1 string itself; valid UTF-8 is decoded by `decodeURIComponent(escape(...))`,
 * which is strict (it refuses overlong forms, surrogates and truncated sequences); only invalid
 * input takes the replacing decoder.
 */
export function decodeUtf8(bytes) {
  const binary = bytesToBinary(bytes);
  if (!NON_ASCII.test(binary)) return { text: binary, valid: true };
  try {
    return { text: decodeURIComponent(escape(binary)), valid: true };
  } catch {
    return decodeReplacing(bytes);
  }
}

/** The byte-by-byte decoder: U+FFFD for each invalid byte, `valid: false` when there was one. */
export function decodeReplacing(bytes) {
  const parts = [];
  let units = [];
  let valid = true;
  const length = bytes.length;
  let index = 0;
  while (index < length) {
    const byte = bytes[index];
    if (byte < 0x80) {
      units.push(byte);
      index += 1;
    } else {
      let needed = 0;
      let codePoint = 0;
      let minimum = 0;
      if (byte >= 0xc2 && byte <= 0xdf) {
        needed = 1;
        codePoint = byte & 0x1f;
        minimum = 0x80;
      } else if (byte >= 0xe0 && byte <= 0xef) {
        needed = 2;
        codePoint = byte & 0x0f;
        minimum = 0x800;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        needed = 3;
        codePoint = byte & 0x07;
        minimum = 0x10000;
      }
      let ok = needed > 0 && index + needed < length;
      if (ok) {
        for (let step = 1; step <= needed; step += 1) {
          const next = bytes[index + step];
          if (next === undefined || (next & 0xc0) !== 0x80) {
            ok = false;
            break;
          }
          codePoint = (codePoint << 6) | (next & 0x3f);
        }
      }
      if (ok && (codePoint < minimum || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))) {
        ok = false;
      }
      if (ok) {
        if (codePoint >= 0x10000) {
          const offset = codePoint - 0x10000;
          units.push(0xd800 + (offset >> 10), 0xdc00 + (offset & 0x3ff));
        } else {
          units.push(codePoint);
        }
        index += needed + 1;
      } else {
        valid = false;
        units.push(0xfffd);
        index += 1;
      }
    }
    if (units.length >= CHUNK) {
      parts.push(String.fromCharCode.apply(null, units));
      units = [];
    }
  }
  if (units.length > 0) parts.push(String.fromCharCode.apply(null, units));
  return { text: parts.join(''), valid };
}

const BEYOND_ASCII = /[\u0080-\uffff]/;

/** The UTF-8 length of `text` in bytes, or -1 when it has a lone surrogate. */
export function utf8Length(text) {
  if (!BEYOND_ASCII.test(text)) return text.length;
  try {
    return unescape(encodeURIComponent(text)).length;
  } catch {
    return -1;
  }
}

/** Encodes a string as UTF-8 (lone surrogates become U+FFFD). */
export function encodeUtf8(text) {
  let binary = text;
  if (BEYOND_ASCII.test(text)) {
    try {
      // One character per UTF-8 byte, built in C; it throws on lone surrogates.
      binary = unescape(encodeURIComponent(text));
    } catch {
      return encodeReplacing(text);
    }
  }
  const out = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) out[index] = binary.charCodeAt(index);
  return out;
}

/** The code-point-by-code-point encoder, for text with lone surrogates (they become U+FFFD). */
export function encodeReplacing(text) {
  const out = new Uint8Array(text.length * 3);
  let position = 0;
  for (let index = 0; index < text.length; index += 1) {
    let code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        index += 1;
      } else {
        code = 0xfffd;
      }
    } else if (code >= 0xd800 && code <= 0xdfff) {
      code = 0xfffd;
    }
    if (code < 0x80) {
      out[position++] = code;
    } else if (code < 0x800) {
      out[position++] = 0xc0 | (code >> 6);
      out[position++] = 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      out[position++] = 0xe0 | (code >> 12);
      out[position++] = 0x80 | ((code >> 6) & 0x3f);
      out[position++] = 0x80 | (code & 0x3f);
    } else {
      out[position++] = 0xf0 | (code >> 18);
      out[position++] = 0x80 | ((code >> 12) & 0x3f);
      out[position++] = 0x80 | ((code >> 6) & 0x3f);
      out[position++] = 0x80 | (code & 0x3f);
    }
  }
  return out.subarray(0, position);
}

/** Base64 of bytes (for image results), by the built-in `btoa` of the Latin-1 string. */
export function toBase64(bytes) {
  return btoa(bytesToBinary(bytes));
}

/** Whether the first `window` bytes hold a NUL byte: the usual sign of a binary file. */
export function looksBinary(bytes, window = 8192) {
  return bytes.subarray(0, Math.min(bytes.length, window)).indexOf(0) >= 0;
}
