// A 400 about a *value* (out of range, wrong type, malformed) is the caller's invalid-request error:
// nothing learned, nothing sent again, however the provider words it. A refusal of a *feature* is
// still learned. Real wordings from OpenAI, Anthropic, Bedrock, Gemini, vLLM, Groq, Mistral, Ollama,
// Together and DeepSeek; the recorded decimal_below_min_value through the real OpenAI SDK.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OpenAIChatModel, OpenAIResponsesChatModel } from "../../../src/adapters/openai/index.js";
import { ProviderError } from "../../../src/index.js";
import { ScriptedChatModel, errorStep, textStep } from "../../../src/testing/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { callModes, settleCall, user } from "../../support/run-modes.js";
import { hasSharedFixtures, readFixture } from "../../support/shared-fixtures.js";

const valueErrors: { message: string; code?: string }[] = [
  {
    code: "decimal_below_min_value",
    message: "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
  },
  {
    code: "decimal_above_max_value",
    message: "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead.",
  },
  { code: "invalid_type", message: "Invalid type for 'temperature': expected a decimal, but got a string instead." },
  { message: "temperature: Input should be less than or equal to 1" },
  {
    message:
      "1 validation error for ChatCompletionRequest\ntemperature\n  Input should be greater than or equal to 0 [type=greater_than_equal, input_value=-1.0, input_type=float]",
  },
  { message: "'temperature' must be a number between 0 and 2" },
  {
    message:
      "1 validation error detected: Value '-1.0' at 'inferenceConfig.temperature' failed to satisfy constraint: Member must have value greater than or equal to 0",
  },
  { message: "Invalid value at 'generation_config.temperature' (TYPE_FLOAT), \"abc\"" },
  { message: "json: cannot unmarshal string into Go struct field Options.temperature of type float32" },
  { message: "Input validation error: `temperature` must be strictly positive" },
  { message: "Invalid temperature value, the valid range of temperature is [0, 2]" },
  { message: "temperature is out of range" },
  { code: "invalid_value", message: "Invalid value for 'temperature'." },
];

const featureRefusals: { message: string; code?: string }[] = [
  { code: "unsupported_parameter", message: "Unsupported parameter: 'temperature' is not supported with this model." },
  {
    code: "unsupported_value",
    message:
      "Unsupported value: 'temperature' does not support 0.5 with this model. Only the default (1) value is supported.",
  },
  { message: "temperature: Extra inputs are not permitted" },
  { message: "Unrecognized request argument supplied: temperature" },
  { message: "temperature is not supported for this model" },
  { message: "This model does not support the temperature parameter." },
];

function refusing(spec: { message: string; code?: string }, then = textStep("fine")) {
  return new ScriptedChatModel(
    [
      errorStep({
        statusCode: 400,
        ...spec,
        rejectedParameter: { name: "parameter", value: "temperature" },
      }),
      then,
    ],
    { retry: { maxRetries: 2 } },
  );
}

const input = { messages: [user("hi")], parameters: { temperature: 0.5 } };

describe.each(callModes)("a 400 about a value (%s)", (mode) => {
  it.each(valueErrors)("should be the caller's invalid-request error, nothing learned: $message", async (spec) => {
    const model = refusing(spec);
    const { output, error } = await settleCall(model, input, mode);
    expect(output).toBeUndefined();
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error!.reason).toBe("invalid-request");
    expect(error!.isRetryable).toBe(false);
    expect(model.calls).toHaveLength(1);
    expect(model.unsupportedParameters.has("temperature")).toBe(false);
  });

  it.each(featureRefusals)("should still learn a refused feature and send again without it: $message", async (spec) => {
    const model = refusing(spec);
    const { output } = await settleCall(model, input, mode);
    expect(output?.text).toBe("fine");
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]!.parameters.temperature).toBeUndefined();
    expect(model.unsupportedParameters.has("temperature")).toBe(true);
  });
});

describe("a value error, worded any way around a parameter", () => {
  it("should never be learned, whatever precedes or follows the wording", async () => {
    const wording = fc.constantFrom(...valueErrors);
    const noise = fc.string({ maxLength: 30 }).filter((text) => !/\S/.test(text) || /^[a-z ,.:]*$/i.test(text));
    await fc.assert(
      fc.asyncProperty(wording, noise, noise, async (spec, before, after) => {
        const model = refusing({ ...spec, message: `${before} ${spec.message} ${after}` });
        const { error } = await settleCall(model, input, "create");
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(model.calls).toHaveLength(1);
        expect(model.unsupportedParameters.size === 0 || !model.unsupportedParameters.has("temperature")).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe.skipIf(!hasSharedFixtures)("the recorded decimal_below_min_value through the real OpenAI SDK", () => {
  const server = useLoopbackServer();
  const body = hasSharedFixtures ? readFixture("openai-responses/responses-error-400-invalid-temperature.json") : "";
  const models = {
    chat: () => new OpenAIChatModel("gpt-4o-mini", { apiKey: "sk-test-0123456789", baseURL: server.url }),
    responses: () => new OpenAIResponsesChatModel("gpt-4o-mini", { apiKey: "sk-test-0123456789", baseURL: server.url }),
  };
  for (const [api, make] of Object.entries(models)) {
    for (const mode of callModes) {
      it(`should reject once, learn nothing, and leave a later model's temperature alone (${api}, ${mode})`, async () => {
        server.handle((_request, response) => {
          response.writeHead(400, { "content-type": "application/json" });
          response.end(body);
        });
        const { error } = await settleCall(make(), { messages: [user("hi")], parameters: { temperature: -1 } }, mode);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error!.reason).toBe("invalid-request");
        expect(error!.code).toBe("decimal_below_min_value");
        expect(server.requests).toHaveLength(1);
        const later = make();
        expect(later.unsupportedParameters.has("temperature")).toBe(false);
        await settleCall(later, { messages: [user("hi")], parameters: { temperature: 0.5 } }, mode);
        expect(server.requests[1]!.json.temperature).toBe(0.5);
      });
    }
  }
});
