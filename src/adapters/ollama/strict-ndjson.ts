const openBrace = 0x7b;
const closeBrace = 0x7d;
const newline = 0x0a;
type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;
const notJSONObject = () => new SyntaxError("a stream line is not a JSON object");

/**
 * The response, its NDJSON body checked line by line: the `ollama` SDK logs a malformed line and
 * skips it, which would drop part of a reply without a word, and throws a bare TypeError on a line
 * that is JSON but not an object (`0`, `null`). A line that does not look like a JSON object — its
 * first and last non-blank bytes `{` and `}` — ends the body with a SyntaxError after the lines
 * before it (so the caller gets a typed error, with the partial output when chunks were already
 * delivered). The check reads bytes only: chunks pass through untouched, nothing is decoded or
 * parsed twice. (A line shaped like an object but invalid inside still reaches the SDK, which skips it.)
 *
 * The same Response comes back, its body's `getReader()` (what the SDK reads it with) handing out
 * a checking reader, which `took` is given (the adapter cancels the body with it: the SDK lets go
 * of a stream without cancelling its body). Building a new ReadableStream and Response per request
 * cost ~70 µs of CPU per stream, more than the check itself (measured against the raw SDK on the
 * benchmark's server).
 */
export function strictNDJSON(
  response: Response,
  took?: (reader: ReadableStreamDefaultReader<Uint8Array>) => void,
): Response {
  const body = response.body;
  if (!body || !/ndjson/i.test(response.headers.get("content-type") ?? "")) return response;
  const getReader = body.getReader.bind(body);
  const checkedReader = () => {
    const reader = checkingReader(getReader());
    took?.(reader);
    return reader;
  };
  Object.defineProperty(body, "getReader", { value: checkedReader, configurable: true, writable: true });
  return response;
}

/** A reader whose reads end with a SyntaxError at the first line not shaped like a JSON object. */
function checkingReader(reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStreamDefaultReader<Uint8Array> {
  const lines = new LineShapes();
  let failure: SyntaxError | undefined;
  const fail = (): never => {
    failure ??= notJSONObject();
    reader.cancel(failure).catch(() => undefined);
    throw failure;
  };
  const check = (result: ReadResult): ReadResult => {
    if (result.done) return lines.pendingMisshapen() ? fail() : result;
    const badLineStart = lines.scan(result.value);
    if (badLineStart === -1) return result;
    if (badLineStart === 0) return fail();
    // Deliver the good lines before the bad one; the next read fails.
    failure = notJSONObject();
    reader.cancel(failure).catch(() => undefined);
    return { done: false, value: result.value.subarray(0, badLineStart) };
  };
  return {
    read: () => (failure ? Promise.reject(failure) : reader.read().then(check)),
    releaseLock: () => reader.releaseLock(),
    cancel: (reason?: unknown) => reader.cancel(reason),
    get closed() {
      return reader.closed;
    },
  } as ReadableStreamDefaultReader<Uint8Array>;
}

/** The first and last non-blank byte of each line, across chunk boundaries. */
class LineShapes {
  #first = -1; // the current line's first non-blank byte, -1 while it has none
  #last = -1; // its last non-blank byte so far

  /** Scans a chunk; returns where the first misshapen complete line starts, or -1. */
  scan(chunk: Uint8Array): number {
    // Buffer's indexOf is a memchr; a Uint8Array's goes through V8's generic element search, which
    // cost more per stream than the rest of the check (cachegrind, an Ollama stream of ~210 lines).
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let from = 0;
    for (;;) {
      const at = bytes.indexOf(newline, from);
      const end = at === -1 ? chunk.length : at;
      if (this.#first === -1) {
        let index = from;
        while (index < end && chunk[index]! <= 0x20) index++;
        if (index < end) this.#first = chunk[index]!;
      }
      let index = end - 1;
      while (index >= from && chunk[index]! <= 0x20) index--;
      if (index >= from) this.#last = chunk[index]!;
      if (at === -1) return -1;
      if (this.pendingMisshapen()) return from;
      this.#first = -1;
      this.#last = -1;
      from = at + 1;
    }
  }

  /** Whether the line read so far is non-blank and not shaped like a JSON object. */
  pendingMisshapen(): boolean {
    return this.#first !== -1 && (this.#first !== openBrace || this.#last !== closeBrace);
  }
}
