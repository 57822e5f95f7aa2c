import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../../src/index.js";
import type { ProviderErrorReason } from "../../../src/index.js";
import { encodeEvents, encodeException } from "../../support/aws-event-stream.js";
import {
  fakeCredentials,
  readLocalFixture,
  replyError,
  replyFor,
  replyOf,
  useBedrockLoopback,
} from "../../support/bedrock-loopback.js";
import type { AWSErrorFixture } from "../../support/bedrock-loopback.js";
import { sendEventStream } from "../../support/loopback-http2-server.js";
import { callModes, runCall } from "../../support/run-modes.js";

const ask = [{ role: "user" as const, content: "What is INC-001?" }];
const textReply = () => replyOf(readLocalFixture("converse-text.json"));
/** Fast backoff, so retry tests wait milliseconds. */
const fastRetry = { retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } };

function expectNoSecret(error: unknown): void {
  const seen = [String(error), (error as Error).message, inspect(error, { depth: 6, showHidden: true })].join("\n");
  expect(seen).not.toContain(fakeCredentials.secretAccessKey);
}

describe("BedrockChatModel", () => {
  const bedrock = useBedrockLoopback();

  describe.each(callModes)("errors through %s", (mode) => {
    it.each([
      ["throttling-exception.json", "ThrottlingException", "rate-limit", true, 429],
      ["access-denied-exception.json", "AccessDeniedException", "authentication", false, 403],
      ["unrecognized-client-exception.json", "UnrecognizedClientException", "authentication", false, 403],
      ["resource-not-found-exception.json", "ResourceNotFoundException", "not-found", false, 404],
      ["service-unavailable-exception.json", "ServiceUnavailableException", "server", true, 503],
      ["model-not-ready-exception.json", "ModelNotReadyException", "server", true, 429],
      ["internal-server-exception.json", "InternalServerException", "server", true, 500],
      ["validation-exception-tool-choice-any.json", "ValidationException", "invalid-request", false, 400],
    ] as const)(
      "should map %s to a ProviderError by its AWS name",
      async (file, code, reason: ProviderErrorReason, retryable, status) => {
        bedrock.server.handle(replyError(readLocalFixture<AWSErrorFixture>(file)));
        const error = await runCall(bedrock.model(), { messages: ask, maxRetries: 0 }, mode).catch(
          (caught: unknown) => caught,
        );

        expect(ProviderError.isInstance(error)).toBe(true);
        const providerError = error as ProviderError;
        expect(providerError).toMatchObject({
          code,
          reason,
          isRetryable: retryable,
          statusCode: status,
          providerId: "bedrock",
        });
        expect(providerError.message).toContain("us.amazon.nova-micro-v1:0");
        expect((providerError.cause as Error).name).toBe(code);
        expectNoSecret(error);
        expect(bedrock.server.requests).toHaveLength(1);
      },
    );

    it.each(["the model", "a clone of it"])(
      "should cut a secret the service echoes out of the error, through %s",
      async (which) => {
        const denied = readLocalFixture<AWSErrorFixture>("access-denied-exception.json");
        const echoing = {
          ...denied,
          body: { message: `The key ${fakeCredentials.secretAccessKey} may not use this model.` },
        };
        bedrock.server.handle(replyError(echoing));
        const model = bedrock.model();
        const subject = which === "the model" ? model : model.clone();
        const error = await runCall(subject, { messages: ask, maxRetries: 0 }, mode).catch((caught: unknown) => caught);

        expect((error as ProviderError).reason).toBe("authentication");
        expectNoSecret(error);
      },
    );

    it("should not retry AccessDeniedException, and keep the secret out of the error", async () => {
      bedrock.server.handle(replyError(readLocalFixture<AWSErrorFixture>("access-denied-exception.json")));
      const error = await runCall(bedrock.model(undefined, fastRetry), { messages: ask }, mode).catch(
        (caught: unknown) => caught,
      );

      expect((error as ProviderError).reason).toBe("authentication");
      expect(bedrock.server.requests).toHaveLength(1);
      expectNoSecret(error);
    });

    it("should honour Retry-After on a throttled reply", async () => {
      const throttled = readLocalFixture<AWSErrorFixture>("throttling-exception.json");
      bedrock.server.handle(
        replyError({ ...throttled, headers: { ...throttled.headers, "retry-after": "0" } }),
        replyFor(textReply(), mode),
      );
      const delays: number[] = [];
      const model = bedrock.model(undefined, { retry: { maxRetries: 1, initialDelayMs: 5_000, maxDelayMs: 5_000 } });
      model.emitter.on("retry", ({ delayMs }) => delays.push(delayMs));
      await runCall(model, { messages: ask }, mode);
      expect(delays).toEqual([0]);
    });

    it("should learn a refused toolChoice.any and go again on the next rung", async () => {
      bedrock.server.handle(
        replyError(readLocalFixture<AWSErrorFixture>("validation-exception-tool-choice-any.json")),
        replyFor(
          replyOf({
            output: {
              message: {
                role: "assistant",
                content: [{ text: '{"name":"lookup_incident","parameters":{"incident_id":"INC-001"}}' }],
              },
            },
            stopReason: "end_turn",
            usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
          }),
          mode,
        ),
      );
      const model = bedrock.model("mistral.mistral-large-2407-v1:0");
      const tool = {
        name: "lookup_incident",
        inputSchema: { type: "object", properties: { incident_id: { type: "string" } }, required: ["incident_id"] },
      };
      const { output } = await runCall(
        model,
        { messages: ask, tools: [tool], toolChoice: "required", maxRetries: 0 },
        mode,
      );

      expect(bedrock.server.requests).toHaveLength(2);
      expect(bedrock.server.requests[0]!.json.toolConfig.toolChoice).toEqual({ any: {} });
      expect(bedrock.server.requests[1]!.json).not.toHaveProperty("toolConfig");
      expect(model.toolChoiceSupport.has("required")).toBe(false);
      expect(output.meta.toolChoice).toBe("prompt");
      expect(output.toolCalls[0]).toMatchObject({ name: "lookup_incident", args: { incident_id: "INC-001" } });
    });
  });

  it("should report a refused connection as a retryable network error", async () => {
    const address = bedrock.server.url;
    await bedrock.close();
    const model = bedrock.model(undefined, { endpoint: address });
    const error = await model.create({ messages: ask, maxRetries: 0 }).catch((caught: unknown) => caught);

    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "network", isRetryable: true, statusCode: undefined });
    expectNoSecret(error);
  });

  it("should raise a mid-stream exception event as a ProviderError after the chunks that came first", async () => {
    const events = encodeEvents([
      { messageStart: { role: "assistant" } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "INC-001 is" } } },
    ]);
    const body = Buffer.concat([
      events,
      encodeException("ThrottlingException", "Too many tokens, please wait before trying again."),
    ]);
    bedrock.server.handle((_request, response) => sendEventStream(response, body));
    const stream = bedrock.model(undefined, fastRetry).createStream({ messages: ask });
    const texts: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) if (chunk.type === "text-delta") texts.push(chunk.text);
    })().catch((caught: unknown) => caught);

    expect(texts).toEqual(["INC-001 is"]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "ThrottlingException", reason: "rate-limit" });
    // A stream that already yielded is not retried.
    expect(bedrock.server.requests).toHaveLength(1);
  });
});
