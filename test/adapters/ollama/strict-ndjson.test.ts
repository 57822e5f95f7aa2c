import { describe, expect, it } from "vitest";
import { strictNDJSON } from "../../../src/adapters/ollama/strict-ndjson.js";

/** A response whose NDJSON body arrives in pieces of `size` bytes. */
function ndjson(text: string, size: number): Response {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
  return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
}

async function read(response: Response): Promise<{ text: string; error?: Error }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read())
      text += decoder.decode(next.value, { stream: true });
    return { text };
  } catch (error) {
    return { text, error: error as Error };
  }
}

describe("strictNDJSON", () => {
  const good = '{"a":1}\n\n  {"b":{"c":[1,2]}}  \n{"done":true}';

  it.each([1, 3, 7, 1000])("should pass well-shaped lines through untouched, in %i-byte pieces", async (size) => {
    expect(await read(strictNDJSON(ndjson(good, size)))).toEqual({ text: good });
  });

  it.each([1, 4, 1000])(
    "should end at a line that is not a JSON object, after the lines before it, in %i-byte pieces",
    async (size) => {
      for (const bad of ['{"message": {"content": "lo"', "0", "null", "<html>", "{not json"]) {
        const { text, error } = await read(strictNDJSON(ndjson(`{"a":1}\n${bad}\n{"done":true}\n`, size)));
        expect(error).toBeInstanceOf(SyntaxError);
        expect(text.startsWith('{"a":1}\n')).toBe(true);
        expect(text).not.toContain("done");
      }
    },
  );

  it("should catch a misshapen last line without a newline", async () => {
    const { error } = await read(strictNDJSON(ndjson('{"a":1}\n{"cut": tr', 5)));
    expect(error).toBeInstanceOf(SyntaxError);
  });

  it("should check the response in place: same status and headers, and every later read fails too", async () => {
    const response = ndjson('{"a":1}\nnull\n', 1000);
    const checked = strictNDJSON(response);
    expect(checked).toBe(response);
    expect(checked.headers.get("content-type")).toBe("application/x-ndjson");
    const reader = checked.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"a":1}\n');
    await expect(reader.read()).rejects.toThrow(SyntaxError);
    await expect(reader.read()).rejects.toThrow(SyntaxError);
  });

  it("should leave a body that is not NDJSON alone", async () => {
    const response = new Response("plain", { headers: { "content-type": "text/plain" } });
    expect(strictNDJSON(response)).toBe(response);
  });
});
