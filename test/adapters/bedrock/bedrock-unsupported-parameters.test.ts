import { describe, expect, it } from "vitest";
import { UnsupportedFeatureError, type WarningEvent } from "../../../src/index.js";
import {
  readLocalFixture,
  replayInteraction,
  replyFor,
  replyOf,
  useBedrockLoopback,
} from "../../support/bedrock-loopback.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";
import { hasSharedFixtures, missingFixturesMessage, readCassette } from "../../support/shared-fixtures.js";

const everyDropped = { seed: 7, frequencyPenalty: 0.5, presencePenalty: 0.5, reasoningEffort: "low" as const };

describe.each(callModes)("BedrockChatModel parameters Converse has no field for, through %s", (mode) => {
  const bedrock = useBedrockLoopback();
  const text = () => replyFor(replyOf(readLocalFixture("converse-text.json")), mode);
  const listen = (model: ReturnType<typeof bedrock.model>) => {
    const warnings: WarningEvent[] = [];
    model.emitter.on("warning", (event) => warnings.push(event));
    return warnings;
  };
  const body = (index = 0) => bedrock.server.requests[index]!.json;

  it("should warn once per parameter it drops (topK too, on a family without a topK field) and send the rest", async () => {
    bedrock.server.handle(text());
    const model = bedrock.model("meta.llama3-1-8b-instruct-v1:0", { retry: { maxRetries: 0 } });
    const warnings = listen(model);
    const parameters = { ...everyDropped, topK: 40, temperature: 0.3, maxTokens: 64 };
    await runCall(model, { messages: [user("hi")], parameters }, mode);
    await runCall(model, { messages: [user("hi")], parameters }, mode);

    expect(warnings.map((warning) => [warning.code, warning.message.match(/parameter '(\w+)'/)![1]])).toEqual([
      ["unsupported-parameter", "seed"],
      ["unsupported-parameter", "frequencyPenalty"],
      ["unsupported-parameter", "presencePenalty"],
      ["unsupported-parameter", "reasoningEffort"],
      ["unsupported-parameter", "topK"],
    ]);
    expect(warnings[0]!.message).toMatch(/^bedrock meta\.llama3-1-8b-instruct-v1:0 has no parameter 'seed'/);
    for (const index of [0, 1]) {
      expect(body(index).inferenceConfig).toEqual({ temperature: 0.3, maxTokens: 64 });
      expect(body(index)).not.toHaveProperty("additionalModelRequestFields");
    }
  });

  it("should send topK for Claude without a warning, and still warn about the rest", async () => {
    bedrock.server.handle(text());
    const model = bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0", { retry: { maxRetries: 0 } });
    const warnings = listen(model);
    await runCall(model, { messages: [user("hi")], parameters: { topK: 40, seed: 1 } }, mode);
    expect(warnings.map((warning) => warning.message.match(/parameter '(\w+)'/)![1])).toEqual(["seed"]);
    expect(body().additionalModelRequestFields).toEqual({ top_k: 40 });
  });

  it("should say nothing when no unsupported parameter is set", async () => {
    bedrock.server.handle(text());
    const model = bedrock.model("meta.llama3-1-8b-instruct-v1:0", { retry: { maxRetries: 0 } });
    const warnings = listen(model);
    await runCall(model, { messages: [user("hi")], parameters: { temperature: 0, topP: 0.9, stop: ["END"] } }, mode);
    expect(warnings).toEqual([]);
  });

  it("should refuse them before any request with strictParameters: true", async () => {
    bedrock.server.handle(text());
    const model = bedrock.model("meta.llama3-1-8b-instruct-v1:0", { strictParameters: true, retry: { maxRetries: 0 } });
    const { error } = await settleCall(model, { messages: [user("hi")], parameters: { seed: 7 } }, mode);
    expect(UnsupportedFeatureError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ feature: "parameter:seed", providerId: "bedrock" });
    expect(bedrock.server.requests).toHaveLength(0);
  });

  it("should take the constructor's unsupportedParameters over the profile", async () => {
    bedrock.server.handle(text());
    const model = bedrock.model("meta.llama3-1-8b-instruct-v1:0", {
      unsupportedParameters: [],
      retry: { maxRetries: 0 },
    });
    const warnings = listen(model);
    await runCall(model, { messages: [user("hi")], parameters: { seed: 7 } }, mode);
    expect(warnings).toEqual([]);
  });
});

describe.skipIf(!hasSharedFixtures)(
  `BedrockChatModel dropped parameters on recorded traffic${hasSharedFixtures ? "" : ` (${missingFixturesMessage})`}`,
  () => {
    const bedrock = useBedrockLoopback();
    it("should warn about seed and send the recorded Nova request's own fields", async () => {
      const [recorded] = readCassette("bedrock/converse-nonstream-text.cassette.yaml");
      bedrock.server.handle(replayInteraction(recorded!));
      const model = bedrock.model("us.amazon.nova-micro-v1:0", { retry: { maxRetries: 0 } });
      const warnings: WarningEvent[] = [];
      model.emitter.on("warning", (event) => warnings.push(event));
      const output = await model.create({ messages: [user("Hello")], parameters: { seed: 3, topK: 5 } });
      expect(output.finishReason).toBe("stop");
      // Nova has a topK field (inferenceConfig.topK): only seed is dropped.
      expect(warnings.map((warning) => warning.message.match(/parameter '(\w+)'/)![1])).toEqual(["seed"]);
      expect(bedrock.server.requests[0]!.json.additionalModelRequestFields).toEqual({ inferenceConfig: { topK: 5 } });
      expect(JSON.stringify(bedrock.server.requests[0]!.json)).not.toMatch(/seed/);
    });
  },
);
