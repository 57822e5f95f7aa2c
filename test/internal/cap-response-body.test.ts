import { describe, expect, it } from "vitest";
import { capResponseBody } from "../../src/internal/cap-response-body.js";
import { ResponseTooLargeError } from "../../src/internal/response-too-large-error.js";

// What an SDK reads from a capped response must behave as fetch's own Response does: the same
// values from every reader, a body read once, and the cap's error past the limit, however it is read.

const text = JSON.stringify({ message: { role: "assistant", content: "héllo ".repeat(50) } });
const bytes = new TextEncoder().encode(text);

/** A chunked response (no content-length: the capped path), its body in `pieces` chunks. */
function chunked(pieces = 3, type = "application/json"): Response {
  const size = Math.ceil(bytes.length / pieces);
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += size)));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": type } });
}

const readers = {
  json: async (response: Response) => JSON.stringify(await response.json()),
  text: (response: Response) => response.text(),
  arrayBuffer: async (response: Response) => new TextDecoder().decode(await response.arrayBuffer()),
  blob: async (response: Response) => (await response.blob()).text(),
  body: async (response: Response) => new Response(response.body).text(),
  reader: async (response: Response) => {
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    return new TextDecoder().decode(Buffer.concat(chunks));
  },
  forAwait: async (response: Response) => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    return new TextDecoder().decode(Buffer.concat(chunks));
  },
  pipeThrough: (response: Response) => new Response(response.body!.pipeThrough(new TransformStream())).text(),
  tee: (response: Response) => new Response(response.body!.tee()[0]).text(),
};

describe("capResponseBody", () => {
  it.each(Object.keys(readers) as (keyof typeof readers)[])(
    "should read the whole body with %s, as fetch does",
    async (name) => {
      const capped = capResponseBody(chunked(), 1 << 20);
      expect(await readers[name](capped)).toBe(text);
      expect(capped.bodyUsed).toBe(true);
    },
  );

  it.each(Object.keys(readers) as (keyof typeof readers)[])(
    "should end %s with a ResponseTooLargeError past the cap, the rest not read",
    async (name) => {
      let pulls = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulls++;
          controller.enqueue(new Uint8Array(1000));
        },
      });
      const capped = capResponseBody(new Response(endless, { headers: { "content-type": "application/json" } }), 5000);
      const error = await readers[name](capped).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      // The body reader may wrap it (new Response(body).text() rejects with the stream's error as it is).
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ limit: 5000, bytesRead: 6000 });
      expect(pulls).toBeLessThan(10);
    },
  );

  it("should refuse a second read, as fetch does", async () => {
    const capped = capResponseBody(chunked(), 1 << 20);
    await capped.text();
    await expect(capped.json()).rejects.toThrow(TypeError);
  });

  it("should leave the body to json() when the stream was only held, not read", async () => {
    const capped = capResponseBody(chunked(), 1 << 20);
    expect(capped.body).toBeInstanceOf(ReadableStream);
    expect(await capped.json()).toEqual(JSON.parse(text));
  });

  it("should count what several readers of the body take, one after the other", async () => {
    const capped = capResponseBody(chunked(4), bytes.length - 1);
    const first = capped.body!.getReader();
    expect((await first.read()).done).toBe(false);
    first.releaseLock();
    const error = await (async () => {
      for await (const chunk of capped.body! as unknown as AsyncIterable<Uint8Array>) void chunk;
    })().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it("should leave the body to a reader when a for await left it early without cancelling it", async () => {
    const capped = capResponseBody(chunked(3), 1 << 20);
    const body = capped.body! as ReadableStream<Uint8Array> & {
      values(options: object): AsyncIterableIterator<Uint8Array>;
    };
    for await (const chunk of body.values({ preventCancel: true })) {
      void chunk;
      break;
    }
    expect(body.locked).toBe(false);
    expect((await body.getReader().read()).done).toBe(false);
  });

  it("should give clones capped bodies of their own", async () => {
    const capped = capResponseBody(chunked(), 100);
    const clone = capped.clone();
    await expect(clone.text()).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(capped.arrayBuffer()).rejects.toBeInstanceOf(ResponseTooLargeError);
    const roomy = capResponseBody(chunked(), 1 << 20);
    expect(await roomy.clone().text()).toBe(text);
    expect(await roomy.text()).toBe(text);
  });

  it("should pass a body within a known length, and no cap, untouched", () => {
    const known = new Response(bytes, { headers: { "content-length": String(bytes.length) } });
    const untouched = (response: Response) => Object.getPrototypeOf(response) === Response.prototype;
    expect(untouched(capResponseBody(known, 1 << 20))).toBe(true);
    expect(untouched(capResponseBody(chunked(), Infinity))).toBe(true);
    const encoded = new Response(bytes, { headers: { "content-length": "10", "content-encoding": "gzip" } });
    const capped = capResponseBody(encoded, 1 << 20);
    expect(untouched(capped)).toBe(false);
    expect(capped).toBeInstanceOf(Response);
  });
});
