/**
 * The response, its NDJSON body checked line by line: the `ollama` SDK logs a malformed line and
 * skips it, which would drop part of a reply without a word, and throws a bare TypeError on a line
 * that is JSON but not an object (`0`, `null`). A line that is not a JSON object ends the body
 * with a SyntaxError instead, after the lines before it (so the caller gets a typed error, with the
 * partial output when chunks were already delivered). Other bodies pass untouched.
 */
export function strictNDJSON(response: Response): Response {
  if (!response.body || !/ndjson/i.test(response.headers.get("content-type") ?? "")) return response;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = "";
  const pass = (line: string, controller: TransformStreamDefaultController<Uint8Array>): boolean => {
    if (line.trim() === "") return true; // blank lines carry nothing (the SDK would log each one)
    if (!isJSONObject(line)) {
      controller.error(new SyntaxError(`a stream line is not a JSON object: ${JSON.stringify(line.slice(0, 80))}`));
      return false;
    }
    controller.enqueue(encoder.encode(`${line}\n`));
    return true;
  };
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const lines = (buffer + decoder.decode(chunk, { stream: true })).split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) if (!pass(line, controller)) return;
      },
      flush(controller) {
        const rest = buffer + decoder.decode();
        if (rest !== "") pass(rest, controller);
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function isJSONObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}
