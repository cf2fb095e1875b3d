// UTF-8 for guests: QuickJS in componentize-qjs has no TextEncoder/TextDecoder.

export function encodeUtf8(text) {
  const binary = unescape(encodeURIComponent(text));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

export function decodeUtf8(bytes) {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 8192) {
    binary += String.fromCharCode.apply(null, bytes.subarray(index, index + 8192));
  }
  try {
    return decodeURIComponent(escape(binary));
  } catch {
    return binary;
  }
}
