const openBrace = 0x7b;
const closeBrace = 0x7d;
const newline = 0x0a;

/**
 * The response, its NDJSON body checked line by line: the `ollama` SDK logs a malformed line and
 * skips it, which would drop part of a reply without a word, and throws a bare TypeError on a line
 * that is JSON but not an object (`0`, `null`). A line that does not look like a JSON object — its
 * first and last non-blank bytes `{` and `}` — ends the body with a SyntaxError after the lines
 * before it (so the caller gets a typed error, with the partial output when chunks were already
 * delivered). The check reads bytes only: chunks pass through untouched, nothing is decoded or
 * parsed twice. (A line shaped like an object but invalid inside still reaches the SDK, which skips it.)
 */
export function strictNDJSON(response: Response): Response {
  if (!response.body || !/ndjson/i.test(response.headers.get("content-type") ?? "")) return response;
  let first = -1; // the current line's first non-blank byte, -1 while it has none
  let last = -1; // its last non-blank byte so far
  const misshapen = () => first !== -1 && (first !== openBrace || last !== closeBrace);
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        let from = 0;
        for (;;) {
          const at = chunk.indexOf(newline, from);
          const end = at === -1 ? chunk.length : at;
          if (first === -1) {
            let index = from;
            while (index < end && chunk[index]! <= 0x20) index++;
            if (index < end) first = chunk[index]!;
          }
          let index = end - 1;
          while (index >= from && chunk[index]! <= 0x20) index--;
          if (index >= from) last = chunk[index]!;
          if (at === -1) break;
          if (misshapen()) {
            if (from > 0) controller.enqueue(chunk.subarray(0, from));
            controller.error(new SyntaxError("a stream line is not a JSON object"));
            return;
          }
          first = -1;
          last = -1;
          from = at + 1;
        }
        controller.enqueue(chunk);
      },
      flush(controller) {
        if (misshapen()) controller.error(new SyntaxError("a stream line is not a JSON object"));
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
