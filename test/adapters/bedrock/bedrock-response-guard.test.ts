import type { Http2ServerResponse } from "node:http2";
import { describe, expect, it } from "vitest";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { BedrockChatModel } from "../../../src/adapters/bedrock/index.js";
import { ProviderError } from "../../../src/index.js";
import { encodeEvents } from "../../support/aws-event-stream.js";
import { fakeCredentials, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { settleCall } from "../../support/run-modes.js";

// Issue 25 item 6 for Bedrock (the AWS SDK's own HTTP/2 handler, capped by a middleware on the
// client's stack) and issue 23's HTML 200 on a ConverseStream.

const cap = 256 * 1024;
const retry = { retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 } } as const;
const ask = { messages: [{ role: "user" as const, content: "hi" }] };
const serverLimit = 64 * 1024 * 1024;

/** Writes `block` again and again, minding backpressure, until the client goes or `serverLimit` bytes. */
function endless(contentType: string, block: Buffer, closed: { value: boolean }) {
  return (_request: unknown, response: Http2ServerResponse) => {
    response.writeHead(200, { "content-type": contentType });
    let written = 0;
    response.on("close", () => (closed.value = true));
    const pump = () => {
      while (!response.destroyed && !response.stream.closed && written < serverLimit) {
        written += block.length;
        if (!response.write(block)) return void response.once("drain", pump);
      }
      if (!response.stream.closed) response.end();
    };
    pump();
  };
}

function expectTooLarge(error: (Error & Partial<ProviderError>) | undefined): void {
  expect(ProviderError.isInstance(error), String(error)).toBe(true);
  expect(error).toMatchObject({
    code: "response_too_large",
    reason: "server",
    isRetryable: false,
    providerId: "bedrock",
  });
  expect(error!.message).toContain(`maxResponseBytes (${cap} bytes)`);
  const read = Number(/reading stopped after (\d+) bytes/.exec(error!.message)?.[1]);
  expect(read).toBeGreaterThan(cap);
  expect(read).toBeLessThan(cap + 1024 * 1024);
}

describe("BedrockChatModel response guard", () => {
  const bedrock = useBedrockLoopback();

  it("should stop a huge Converse body at the cap, with one request (create)", async () => {
    const closed = { value: false };
    bedrock.server.handle(endless("application/json", Buffer.from(`{"p":"${"x".repeat(16_000)}"}`), closed));
    const { error } = await settleCall(bedrock.model(undefined, { ...retry, maxResponseBytes: cap }), ask, "create");
    expectTooLarge(error);
    expect(bedrock.server.requests).toHaveLength(1);
    await expect.poll(() => closed.value, { timeout: 2000 }).toBe(true);
  });

  it("should stop an endless event stream at the cap and close the stream (createStream)", async () => {
    const closed = { value: false };
    const deltas = encodeEvents(
      Array.from({ length: 200 }, () => ({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: "a" } } })),
    );
    const start = encodeEvents([{ messageStart: { role: "assistant" } }]);
    bedrock.server.handle(endless("application/vnd.amazon.eventstream", Buffer.concat([start, deltas]), closed));
    const { error, chunks } = await settleCall(
      bedrock.model(undefined, { ...retry, maxResponseBytes: cap }),
      ask,
      "createStream",
    );
    expectTooLarge(error);
    expect(chunks.length).toBeGreaterThan(0);
    expect(bedrock.server.requests).toHaveLength(1);
    await expect.poll(() => closed.value, { timeout: 2000 }).toBe(true);
  });

  it("should refuse a ConverseStream answered 200 with an HTML page, with one request (createStream)", async () => {
    bedrock.server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html><body>Sign in</body></html>");
    });
    const { error, chunks } = await settleCall(bedrock.model(undefined, retry), ask, "createStream");
    expect(ProviderError.isInstance(error), String(error)).toBe(true);
    expect(error).toMatchObject({ code: "not_a_stream", reason: "server", isRetryable: false });
    expect(error!.message).toContain("an HTML page (text/html");
    expect(error!.message).toContain("endpoint");
    expect(chunks).toHaveLength(0);
    expect(bedrock.server.requests).toHaveLength(1);
  });

  it("should leave a caller's own client as it is (uncapped)", async () => {
    const client = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: bedrock.server.url,
      credentials: fakeCredentials,
      maxAttempts: 1,
    });
    const before = client.middlewareStack.identify().length;
    const model = new BedrockChatModel("us.amazon.nova-micro-v1:0", { client, maxResponseBytes: cap });
    expect(model.maxResponseBytes).toBe(cap);
    expect(client.middlewareStack.identify()).toHaveLength(before);
    client.destroy();
  });
});
