/** How each model reads the credentials it holds now (a key, a token an Entra ID provider issued, AWS keys). */
const readers = new WeakMap<object, () => readonly (string | undefined)[]>();

/**
 * Notes how `model` reads the credentials its requests carry, read again each time they are asked
 * for (keys rotate, tokens are issued per request). Adapters call it when a model is built.
 */
export function noteModelCredentials(model: object, read: () => readonly (string | undefined)[]): void {
  readers.set(model, read);
}

/**
 * Every credential `model` holds now, whatever its shape (a Together key of 64 hex characters, an
 * Azure key, AWS secret keys and session tokens): for scrubbing what is written about it. Never
 * throws; a model that noted none (a scripted one) holds none.
 */
export function modelCredentials(model: object): string[] {
  try {
    const read = readers.get(model);
    return read ? read().filter((value): value is string => typeof value === "string" && value !== "") : [];
  } catch {
    return [];
  }
}
