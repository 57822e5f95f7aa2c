import { describe, expect, it } from "vitest";
import { BedrockChatModel, baseModelId, bedrockModelProfile } from "../../../src/adapters/bedrock/index.js";
import { fakeCredentials } from "../../support/bedrock-loopback.js";

const model = (modelId: string, options = {}) =>
  new BedrockChatModel(modelId, {
    region: "us-east-1",
    credentials: fakeCredentials,
    endpoint: "http://127.0.0.1:9",
    ...options,
  });

describe("BedrockChatModel", () => {
  it.each([
    ["us.anthropic.claude-3-5-sonnet-20240620-v1:0", "anthropic.claude-3-5-sonnet-20240620-v1:0"],
    ["global.anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic.claude-sonnet-4-5-20250929-v1:0"],
    ["eu.amazon.nova-pro-v1:0", "amazon.nova-pro-v1:0"],
    ["apac.amazon.nova-lite-v1:0", "amazon.nova-lite-v1:0"],
    [
      "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0",
      "meta.llama3-3-70b-instruct-v1:0",
    ],
    ["amazon.nova-micro-v1:0", "amazon.nova-micro-v1:0"],
  ])("should strip the cross-region prefix of %s", (modelId, expected) => {
    expect(baseModelId(modelId)).toBe(expected);
  });

  it.each([
    ["us.anthropic.claude-3-7-sonnet-20250219-v1:0", ["auto", "required", "single"], false],
    ["global.anthropic.claude-sonnet-4-5-20250929-v1:0", ["auto", "required", "single"], true],
    ["us.anthropic.claude-opus-4-6-v1", ["auto", "required", "single"], true],
    ["us.amazon.nova-micro-v1:0", ["auto", "required", "single"], false],
    ["us.meta.llama3-3-70b-instruct-v1:0", ["auto"], false],
    ["mistral.mistral-large-2407-v1:0", ["auto", "required"], false],
    ["mistral.mistral-small-2402-v1:0", ["auto"], false],
    ["qwen.qwen3-32b-v1:0", ["auto"], true],
    ["openai.gpt-oss-120b-1:0", ["auto"], true],
    ["some.unknown-model-v1:0", ["auto"], false],
  ] as const)("should give %s the tool_choice support %j and structured output %s", (modelId, support, structured) => {
    const instance = model(modelId);
    expect([...instance.toolChoiceSupport].sort()).toEqual([...support].sort());
    expect(instance.toolChoiceSupport.has("none")).toBe(false); // Converse has no none: always emulated
    expect(instance.supportsStructuredOutput).toBe(structured);
    expect(instance.supportsTopLevelUnion).toBe(false);
    expect(instance.providerId).toBe("bedrock");
  });

  it("should say Claude 2 and Titan take no tools", () => {
    expect(bedrockModelProfile("anthropic.claude-v2:1").supportsToolCalling).toBe(false);
    expect(model("amazon.titan-text-express-v1").supportsToolCalling).toBe(false);
  });

  it("should let the options override the table", () => {
    const instance = model("us.meta.llama3-3-70b-instruct-v1:0", {
      toolChoiceSupport: ["auto", "required"],
      supportsStructuredOutput: true,
      supportsTopLevelUnion: true,
    });
    expect([...instance.toolChoiceSupport].sort()).toEqual(["auto", "required"]);
    expect(instance.supportsStructuredOutput).toBe(true);
    expect(instance.supportsTopLevelUnion).toBe(true);
  });

  it("should use a ready client as it is", () => {
    const first = model("us.amazon.nova-micro-v1:0");
    const second = new BedrockChatModel("us.amazon.nova-micro-v1:0", { client: first.client });
    expect(second.client).toBe(first.client);
  });

  it("should create its SDK client with the SDK's own retries off", async () => {
    const instance = model("us.amazon.nova-micro-v1:0");
    await expect(instance.client.config.maxAttempts()).resolves.toBe(1);
    await expect(instance.client.config.region()).resolves.toBe("us-east-1");
  });
});
