import { brotliCompressSync, deflateRawSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { leanFetch } from "../../src/internal/lean-fetch.js";
import { useLoopbackServer } from "../support/loopback-server.js";

const server = useLoopbackServer();

describe("leanFetch decoding, next to Node's fetch", () => {
  it("should decode a body with two codings (gzip, br) as Node's fetch does", async () => {
    const text = JSON.stringify({ answer: 42 });
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip, br" });
      response.end(brotliCompressSync(gzipSync(text)));
    });
    expect(await (await fetch(`${server.url}/two`)).text()).toBe(text);
    expect(await (await leanFetch(`${server.url}/two`)).text()).toBe(text);
  });

  it("should decode a raw (headerless) deflate body as Node's fetch does", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain", "content-encoding": "deflate" });
      response.end(deflateRawSync("raw deflate"));
    });
    expect(await (await fetch(`${server.url}/raw`)).text()).toBe("raw deflate");
    expect(await (await leanFetch(`${server.url}/raw`)).text()).toBe("raw deflate");
  });
});
