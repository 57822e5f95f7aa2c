const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

// Random bytes drawn 512 at a time: one call into the CSPRNG per ~60 ids instead of one per id
// (each call cost about as much as the rest of a call's output handling).
const pool = new Uint8Array(512);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    // The global Web Crypto (no node:crypto import: importing keelson stays cheap).
    globalThis.crypto.getRandomValues(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** A tool-call id in the form every provider accepts: `call_` + 8 characters of [a-z0-9]. */
export function generateToolCallId(): string {
  let id = "call_";
  // 252 = 7 * 36: bytes at or above it are re-drawn so each character is uniform.
  for (let i = 0; i < 8; i++) {
    let byte = randomByte();
    while (byte >= 252) byte = randomByte();
    id += alphabet[byte % 36];
  }
  return id;
}
