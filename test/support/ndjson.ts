import type { ServerResponse } from "node:http";

/** Answers with an NDJSON body (`application/x-ndjson`), one JSON value per line, written line by line. */
export async function sendNDJSON(
  response: ServerResponse,
  lines: readonly (string | object)[],
  gapMs = 0,
): Promise<void> {
  response.writeHead(200, { "content-type": "application/x-ndjson" });
  for (const line of lines) {
    response.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  response.end();
}

/** The non-empty lines of an NDJSON text. */
export function ndjsonLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}
