import { connect } from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackHttp2Server } from "../support/loopback-http2-server.js";
import { startLoopbackHttp2Server } from "../support/loopback-http2-server.js";
import { fakeCredentials } from "../support/bedrock-loopback.js";
import { BedrockChatModel } from "../../src/adapters/bedrock/index.js";

/**
 * Time compressed 1000× for HTTP/2 session and stream idle timeouts (the SDK's 300 s session
 * timeout fires after 300 ms), so a model that thinks for minutes before its first byte — Claude
 * with extended thinking, which AWS says may take up to 60 minutes — fits in a test.
 */
const compression = 1000;
let server: LoopbackHttp2Server;
let restore: () => void;
beforeAll(async () => {
  server = await startLoopbackHttp2Server();
  server.handle(() => undefined); // thinks for ever: never answers
  const session = connect(server.url);
  let owner: object | null = Object.getPrototypeOf(session) as object;
  while (owner && !Object.prototype.hasOwnProperty.call(owner, "setTimeout"))
    owner = Object.getPrototypeOf(owner) as object | null;
  session.destroy();
  const target = owner as { setTimeout(ms: number, callback?: () => void): unknown };
  const original = target.setTimeout;
  target.setTimeout = function (this: unknown, ms: number, callback?: () => void) {
    return original.call(this, ms > 0 ? Math.max(1, Math.round(ms / compression)) : ms, callback);
  };
  restore = () => (target.setTimeout = original);
});
afterAll(async () => {
  restore();
  await server.close();
});

describe("BedrockChatModel on a model slow to answer", () => {
  it.each(["create", "createStream"] as const)(
    "should wait for the call's own timeout, not end at the SDK's HTTP/2 session idle timeout (%s)",
    async (mode) => {
      const model = new BedrockChatModel("us.anthropic.claude-3-7-sonnet-20250219-v1:0", {
        region: "us-east-1",
        endpoint: server.url,
        credentials: fakeCredentials,
        retry: { maxRetries: 0 },
      });
      // 1.5 s here is 25 minutes of compressed HTTP/2 time: far past the SDK's 5-minute idle timeout.
      const input = { messages: [{ role: "user" as const, content: "think hard" }], timeout: 1500 };
      const started = performance.now();
      const error = await (mode === "create" ? model.create(input) : model.createStream(input).final()).then(
        () => "resolved",
        (caught: unknown) => caught,
      );
      const elapsed = performance.now() - started;
      expect(error).toMatchObject({ name: "TimeoutError" });
      expect(error).toBeInstanceOf(DOMException);
      expect(elapsed).toBeGreaterThan(1400);
    },
  );
});

describe("BedrockChatModel on a client with its own request timeout", () => {
  it.each(["create", "createStream"] as const)(
    "should report the SDK's timeout as a retryable ProviderError, not as an abort the caller never made (%s)",
    async (mode) => {
      const { BedrockRuntimeClient } = await import("@aws-sdk/client-bedrock-runtime");
      const client = new BedrockRuntimeClient({
        region: "us-east-1",
        endpoint: server.url,
        credentials: fakeCredentials,
        maxAttempts: 1,
        requestHandler: { requestTimeout: 100 },
      });
      const model = new BedrockChatModel("us.amazon.nova-micro-v1:0", {
        client,
        retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
      });
      const before = server.requests.length;
      const input = { messages: [{ role: "user" as const, content: "think hard" }] };
      const error = await (mode === "create" ? model.create(input) : model.createStream(input).final()).then(
        () => "resolved",
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ name: "ProviderError", reason: "timeout", isRetryable: true });
      expect(server.requests.length - before, "the timed-out attempt is retried").toBe(2);
    },
  );
});
