// What a provider refuses with a 400 is learned once per endpoint and model, for the whole process
// (API.md "Learned capabilities"), through the real openai SDK against a gateway on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { ProviderError, type ChatModelInput, type WarningEvent } from "../../../src/index.js";
import type { LoopbackServer, RecordedRequest } from "../../support/loopback-server.js";
import { sendJSON, startLoopbackServer } from "../../support/loopback-server.js";
import { openAITextReply } from "../../support/openai-wire.js";
import { callModes, runCall, settleCall } from "../../support/run-modes.js";
import { hasSharedFixtures, missingFixturesMessage, readJSONFixture } from "../../support/shared-fixtures.js";

const apiKey = "sk-test-SENTINEL-123";
const weather = {
  name: "weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const forced: ChatModelInput = {
  messages: [{ role: "user", content: "Weather in Oslo?" }],
  tools: [weather],
  toolChoice: "required",
};

// ../shared/fixtures has no recorded refusal of tool_choice or of the response format (its README
// lists the OpenAI 400 for an unsupported tool_choice as missing): these two bodies are written in
// OpenAI's documented error envelope, with the wording OpenAI-compatible servers use.
const toolChoiceRefusal = {
  error: {
    message: "tool_choice 'required' is not supported by this model; only 'auto' and 'none' are.",
    type: "invalid_request_error",
    param: "tool_choice",
    code: null,
  },
};
const responseFormatRefusal = {
  error: {
    message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
    type: "invalid_request_error",
    param: "response_format",
    code: null,
  },
};
/** What the model writes on the prompt rung: the tool union, as text. */
const unionText = JSON.stringify({ name: "weather", parameters: { city: "Oslo" } });

let gateway: LoopbackServer;
beforeEach(async () => {
  // A gateway of its own per test: its endpoint is new to the process, so nothing learned leaks in.
  gateway = await startLoopbackServer();
});
afterEach(async () => {
  await gateway.close();
});

function body(request: RecordedRequest): Record<string, any> {
  return request.json as Record<string, any>;
}

function reply(
  request: RecordedRequest,
  response: Parameters<Parameters<LoopbackServer["handle"]>[0]>[1],
  text: string,
) {
  const answer = openAITextReply(text);
  const step = body(request).stream ? answer.stream! : answer.create!;
  response.writeHead(200, step.headers);
  response.end(step.body as string);
}

/** Refuses tool_choice "required" and a JSON-schema response format with 400s; answers anything else. */
function refuseRequiredAndSchemaFormat(): void {
  gateway.handle((request, response) => {
    if (body(request).tool_choice === "required") return sendJSON(response, 400, toolChoiceRefusal);
    if (body(request).response_format?.type === "json_schema") return sendJSON(response, 400, responseFormatRefusal);
    reply(request, response, unionText);
  });
}

/** A model that claims every capability: what it was built with, before the gateway says otherwise. */
function model(modelId = "llama-3.3-70b") {
  const built = new OpenAIChatModel(modelId, {
    baseURL: `${gateway.url}/v1`,
    apiKey,
    toolChoiceSupport: ["auto", "none", "required", "single"],
    supportsStructuredOutput: true,
    // No retries at all: learning must not spend one.
    retry: { maxRetries: 0 },
  });
  const warnings: WarningEvent[] = [];
  built.emitter.on("warning", (event) => void warnings.push(event));
  return { model: built, warnings };
}

describe.each(callModes)(
  "a gateway that refuses tool_choice 'required' and the JSON-schema response format (%s)",
  (mode) => {
    it("should still return the forced call's tool call, on the prompt rung, in one call", async () => {
      refuseRequiredAndSchemaFormat();
      const { model: first, warnings } = model();
      let retries = 0;
      first.emitter.on("retry", () => void retries++);
      const { output } = await runCall(first, forced, mode);
      expect(output.toolCalls).toEqual([expect.objectContaining({ name: "weather", args: { city: "Oslo" } })]);
      expect(output.meta.toolChoice).toBe("prompt");
      expect(retries).toBe(0);
      // Native, then the response-format rung, then the prompt rung: each request without what was refused.
      const [native, union, prompt] = gateway.requests.map(body);
      expect(gateway.requests).toHaveLength(3);
      expect(native).toMatchObject({ tool_choice: "required", tools: [expect.objectContaining({ type: "function" })] });
      expect(union).not.toHaveProperty("tool_choice");
      expect(union).toMatchObject({ response_format: { type: "json_schema" } });
      expect(prompt).not.toHaveProperty("tool_choice");
      expect(prompt).not.toHaveProperty("response_format");
      expect(prompt).not.toHaveProperty("tools");
      expect(prompt!.messages[0]).toMatchObject({ role: "system", content: expect.stringContaining('"weather"') });
      // One warning per learned fact, naming it and the option that sets it up front.
      expect(warnings.map((warning) => [warning.code, warning.message])).toEqual([
        ["learned-tool-choice", expect.stringMatching(/tool_choice 'required'.*toolChoiceSupport: new Set\(/)],
        ["learned-capability", expect.stringMatching(/JSON-schema response format.*supportsStructuredOutput: false/)],
      ]);
      expect(first.toolChoiceSupport.has("required")).toBe(false);
      expect(first.supportsStructuredOutput).toBe(false);
    });

    it("should start a second instance for the same gateway and model from what the first learned", async () => {
      refuseRequiredAndSchemaFormat();
      const { model: first, warnings: firstWarnings } = model();
      await runCall(first, forced, mode);
      const { model: second, warnings } = model();
      // Evidence wins over what it was built with, before its first call.
      expect([...second.toolChoiceSupport]).toEqual(["auto", "none", "single"]);
      expect(second.supportsStructuredOutput).toBe(false);
      gateway.requests.length = 0;
      const { output } = await runCall(second, forced, mode);
      expect(output.toolCalls[0]).toMatchObject({ name: "weather", args: { city: "Oslo" } });
      expect(gateway.requests).toHaveLength(1);
      expect(body(gateway.requests[0]!)).not.toHaveProperty("tool_choice");
      expect(body(gateway.requests[0]!)).not.toHaveProperty("response_format");
      // The facts were announced once, in the process: the second instance hears nothing new.
      expect(warnings).toEqual([]);
      expect(firstWarnings).toHaveLength(2);
    });

    it("should keep what was learned in a clone", async () => {
      refuseRequiredAndSchemaFormat();
      const { model: first } = model();
      const copy = first.clone();
      await runCall(first, forced, mode);
      expect(copy.toolChoiceSupport.has("required")).toBe(false);
      gateway.requests.length = 0;
      await runCall(copy, forced, mode);
      expect(gateway.requests).toHaveLength(1);
    });

    it("should start a different model on the same gateway fresh", async () => {
      refuseRequiredAndSchemaFormat();
      await runCall(model().model, forced, mode);
      const { model: other, warnings } = model("qwen2.5-72b");
      expect(other.toolChoiceSupport.has("required")).toBe(true);
      expect(other.supportsStructuredOutput).toBe(true);
      gateway.requests.length = 0;
      await runCall(other, forced, mode);
      expect(gateway.requests.map((request) => body(request).tool_choice)).toEqual(["required", undefined, undefined]);
      expect(warnings).toHaveLength(2);
    });

    it("should end a call whose refusals keep coming once each fact was learned (no loop)", async () => {
      // Refuses every request, whatever it carries, in the words of a tool_choice refusal.
      gateway.handle((_request, response) => sendJSON(response, 400, toolChoiceRefusal));
      const { model: subject, warnings } = model();
      const { error } = await settleCall(subject, forced, mode);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error!.statusCode).toBe(400);
      // The first refusal taught 'required'; the second request carried no tool_choice: nothing more to learn.
      expect(gateway.requests).toHaveLength(2);
      expect(warnings).toHaveLength(1);
    });
  },
);

describe.each(callModes)("a parameter the model refuses (%s)", (mode) => {
  it.skipIf(!hasSharedFixtures)(
    hasSharedFixtures
      ? "should drop it, send the call again, and leave it out for later instances"
      : missingFixturesMessage,
    async () => {
      // OpenAI's 400 for a reasoning model's temperature (vercel/ai's recorded body, see ../shared/fixtures/README.md).
      const refusal = readJSONFixture("openai-responses/responses-error-400-unsupported-parameter-temperature.json");
      gateway.handle((request, response) => {
        if ("temperature" in body(request)) return sendJSON(response, 400, refusal);
        reply(request, response, "Sunny.");
      });
      const input: ChatModelInput = { messages: forced.messages, parameters: { temperature: 0.2, seed: 7 } };
      const { model: first, warnings } = model("o4-mini");
      const { output } = await runCall(first, input, mode);
      expect(output.text).toBe("Sunny.");
      expect(gateway.requests.map((request) => body(request).temperature)).toEqual([0.2, undefined]);
      // Only the refused parameter goes: the seed stays.
      expect(body(gateway.requests[1]!).seed).toBe(7);
      expect(warnings.map((warning) => warning.code)).toEqual(["learned-capability"]);
      expect(warnings[0]!.message).toMatch(/parameters\.temperature.*unsupportedParameters: \["temperature"\]/);
      expect(first.unsupportedParameters.has("temperature")).toBe(true);

      const { model: second, warnings: later } = model("o4-mini");
      gateway.requests.length = 0;
      await runCall(second, input, mode);
      expect(gateway.requests).toHaveLength(1);
      expect(body(gateway.requests[0]!)).not.toHaveProperty("temperature");
      // Dropped like an unsupported parameter, and not announced again.
      expect(later).toEqual([]);
    },
  );

  it("should leave a refusal of what the caller set in providerOptions to the caller", async () => {
    gateway.handle((request, response) => {
      if ("temperature" in body(request))
        return sendJSON(response, 400, {
          error: {
            message: "Unsupported parameter: 'temperature'.",
            type: "invalid_request_error",
            param: "temperature",
          },
        });
      reply(request, response, "Sunny.");
    });
    const { model: subject, warnings } = model("o4-mini");
    const { error } = await settleCall(
      subject,
      { messages: forced.messages, providerOptions: { temperature: 1 } },
      mode,
    );
    expect(error!.statusCode).toBe(400);
    expect(gateway.requests).toHaveLength(1);
    expect(warnings).toEqual([]);
    expect(subject.unsupportedParameters.has("temperature")).toBe(false);
  });
});
