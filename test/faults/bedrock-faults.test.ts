import type { Http2ServerResponse } from "node:http2";
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/index.js";
import type { ChatModelInput } from "../../src/index.js";
import { replyFor, replyOf, useBedrockLoopback } from "../support/bedrock-loopback.js";
import { encodeEvents } from "../support/aws-event-stream.js";
import type { Http2Handler } from "../support/loopback-http2-server.js";
import { callModes, settleCall } from "../support/run-modes.js";

const reply = replyOf({
  output: { message: { role: "assistant", content: [{ text: "Hello there friend" }] } },
  stopReason: "end_turn",
  usage: { inputTokens: 3, outputTokens: 3, totalTokens: 6 },
});
/** messageStart and the first text delta ("Hello "). */
const head = Buffer.from(encodeEvents(reply.events.slice(0, 2)));
const eventStream = "application/vnd.amazon.eventstream";

const streamThen =
  (rest: (response: Http2ServerResponse) => void): Http2Handler =>
  (_request, response) => {
    response.writeHead(200, { "content-type": eventStream });
    rest(response);
  };
const resetStream: Http2Handler = (_request, response) => {
  response.stream.close(2); // NGHTTP2_INTERNAL_ERROR, before any byte of the response
};

const bedrock = useBedrockLoopback();

const model = () => bedrock.model(undefined, { retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 } });
const input: ChatModelInput = { messages: [{ role: "user", content: "hi" }] };

describe("BedrockChatModel under faults", () => {
  describe.each(callModes)("%s", (mode) => {
    it.each([
      { fault: "a stream reset before the response", handler: resetStream },
      {
        fault: "a 502 HTML page",
        handler: ((_request, response) => {
          response.writeHead(502, { "content-type": "text/html" });
          response.end("<html><body>502 Bad Gateway</body></html>");
        }) as Http2Handler,
      },
    ])("should retry $fault and succeed with the second request", async ({ handler }) => {
      bedrock.server.handle(handler, replyFor(reply, mode));
      const { output } = await settleCall(model(), input, mode);
      expect(output?.text).toBe("Hello there friend");
      expect(bedrock.server.requests).toHaveLength(2);
    });
  });

  describe("createStream", () => {
    it.each([
      {
        fault: "a stream reset",
        handler: streamThen((response) => response.write(head, () => setTimeout(() => response.stream.close(2), 10))),
        reason: "network",
      },
      {
        fault: "a stream that ends without messageStop",
        handler: streamThen((response) => response.end(head)),
        reason: "network",
      },
      {
        fault: "a garbled frame",
        handler: streamThen((response) =>
          response.end(Buffer.concat([head, Buffer.from("not an event-stream frame at all")])),
        ),
        reason: "server",
      },
    ])(
      "should end $fault after text was delivered in a ProviderError carrying the partial output, without retrying",
      async ({ handler, reason }) => {
        bedrock.server.handle(handler);
        const { error, output, chunks } = await settleCall(model(), input, "createStream");
        expect(output).toBeUndefined();
        expect(chunks.map((chunk) => (chunk.type === "text-delta" ? chunk.text : "")).join("")).toBe("Hello ");
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ reason, partialOutput: expect.objectContaining({ text: "Hello " }) });
        expect(bedrock.server.requests).toHaveLength(1);
      },
    );

    it("should retry a stream that ends without messageStop before any text, and succeed", async () => {
      bedrock.server.handle(
        streamThen((response) => response.end(Buffer.from(encodeEvents(reply.events.slice(0, 1))))),
        replyFor(reply, "createStream"),
      );
      const { output } = await settleCall(model(), input, "createStream");
      expect(output?.text).toBe("Hello there friend");
      expect(bedrock.server.requests).toHaveLength(2);
    });
  });
});
