import { describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { ContextOverflowError, ProviderError, type WarningEvent } from "../../../src/index.js";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { sendJSON, useLoopbackServer } from "../../support/loopback-server.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

// Each test's model has an id of its own: what one learned from reported usage corrects no other's estimate.
let models = 0;
const modelId = () => `preflight-${++models}`;
const long = "word ".repeat(4000); // about 5,300 tokens at the default 3.8 characters per token

describe("preflightGuarded", () => {
  describe.each(callModes)("%s", (mode) => {
    it("should refuse input that cannot fit the context window before any request", async () => {
      const model = new ScriptedChatModel([textStep("never sent")], { modelId: modelId(), contextWindow: 1000 });
      const { error } = await settleCall(model, { messages: [user(long)] }, mode);
      expect(ContextOverflowError.isInstance(error)).toBe(true);
      const overflow = error as ContextOverflowError;
      expect(overflow.contextWindow).toBe(1000);
      expect(overflow.inputTokens).toBeGreaterThan(1000);
      expect(overflow.message).toMatch(/no request was sent/);
      expect(model.calls).toHaveLength(0);
    });

    it("should clamp a maxTokens that does not fit beside the input, with one warning per call", async () => {
      const model = new ScriptedChatModel([textStep("ok")], { modelId: modelId(), contextWindow: 8000 });
      const warnings: WarningEvent[] = [];
      model.emitter.on("warning", (event) => warnings.push(event));
      const { output } = await runCall(model, { messages: [user(long)], parameters: { maxTokens: 5000 } }, mode);
      expect(output.text).toBe("ok");
      const sent = model.calls[0]!.parameters.maxTokens!;
      expect(sent).toBeLessThan(5000);
      expect(sent).toBeGreaterThan(0);
      expect(warnings.map((event) => event.code)).toEqual(["max-tokens-clamped"]);
      expect(warnings[0]!.message).toContain(`sent as ${sent}`);
    });

    it("should send a maxTokens that fits as it is, with no warning", async () => {
      const model = new ScriptedChatModel([textStep("ok")], { modelId: modelId(), contextWindow: 200_000 });
      const warnings: WarningEvent[] = [];
      model.emitter.on("warning", (event) => warnings.push(event));
      await runCall(model, { messages: [user(long)], parameters: { maxTokens: 5000 } }, mode);
      expect(model.calls[0]!.parameters.maxTokens).toBe(5000);
      expect(warnings).toEqual([]);
    });
  });

  it("should check nothing for a model whose window is unknown", async () => {
    const model = new ScriptedChatModel([textStep("ok")]);
    expect(model.profile.contextWindow).toBeUndefined();
    await expect(model.create({ messages: [user(long.repeat(20))] })).resolves.toMatchObject({ text: "ok" });
  });
});

describe("a provider's context-length 400", () => {
  const server = useLoopbackServer();
  // Documented error bodies (no recorded one exists in the shared fixtures): OpenAI's
  // context_length_exceeded, as the chat completions API answers it, and an OpenAI-compatible server's.
  const refusals: [string, object, number | undefined, number | undefined][] = [
    [
      "OpenAI's context_length_exceeded",
      {
        error: {
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      },
      128000,
      130532,
    ],
    [
      "a compatible server's wording",
      { error: { message: "Input is too long for requested model.", type: "BadRequestError", code: null } },
      undefined,
      undefined,
    ],
  ];

  describe.each(callModes)("%s", (mode) => {
    it.each(refusals)("should become a ContextOverflowError (%s), not retried", async (_, body, window, input) => {
      server.handle((_request, response) => sendJSON(response, 400, body));
      const model = new OpenAIChatModel("my-model", { baseURL: `${server.url}/v1`, apiKey: "sk-test" });
      const { error } = await settleCall(model, { messages: [user("hi")] }, mode);
      expect(ContextOverflowError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ contextWindow: window, inputTokens: input, statusCode: 400 });
      expect(ProviderError.isInstance((error as Error).cause)).toBe(true);
      expect(server.requests).toHaveLength(1);
    });
  });

  it("should leave another 400 a ProviderError", async () => {
    const body = { error: { message: "Invalid value for temperature", type: "invalid_request_error", code: null } };
    server.handle((_request, response) => sendJSON(response, 400, body));
    const model = new OpenAIChatModel("my-model", { baseURL: `${server.url}/v1`, apiKey: "sk-test" });
    const error = await model.create({ messages: [user("hi")] }).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
  });
});
