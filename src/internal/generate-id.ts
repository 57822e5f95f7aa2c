const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
/** The largest multiple of 36 a byte reaches: a byte at or above it is drawn again, so each character stays uniform. */
const usableByte = Math.floor(256 / alphabet.length) * alphabet.length;

/** A tool-call id in the form every provider accepts: `call_` + 8 characters of [a-z0-9]. */
export function generateToolCallId(): string {
  // The global Web Crypto (no node:crypto import: importing keelson stays cheap).
  const bytes = new Uint8Array(16);
  let id = "call_";
  while (id.length < 13) {
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) if (byte < usableByte && id.length < 13) id += alphabet[byte % alphabet.length];
  }
  return id;
}
