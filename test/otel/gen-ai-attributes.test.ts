import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { BedrockChatModel } from "../../src/adapters/bedrock/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { ChatModel } from "../../src/index.js";
import { instrumentChatModel } from "../../src/otel/index.js";
import { ScriptedChatModel, textStep } from "../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../support/run-modes.js";
import { useSpanExporter } from "../support/span-exporter.js";

const { exporter, tracer } = useSpanExporter();

/** Never reached: every call below is aborted before its request. */
const nowhere = "http://127.0.0.1:9";
const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" };

describe("instrumentChatModel", () => {
  describe.each(callModes)("through %s", (mode) => {
    it.each<[string, () => ChatModel, string]>([
      ["OpenAIChatModel", () => new OpenAIChatModel("gpt-4o", { baseURL: nowhere, apiKey: "sk-test" }), "openai"],
      [
        "AzureOpenAIChatModel",
        () =>
          new AzureOpenAIChatModel("gpt-4o", {
            endpoint: nowhere,
            apiKey: "sk-test",
            apiVersion: "2024-12-01-preview",
          }),
        "azure.ai.openai",
      ],
      [
        "BedrockChatModel",
        () =>
          new BedrockChatModel("us.amazon.nova-micro-v1:0", { region: "us-east-1", endpoint: nowhere, credentials }),
        "aws.bedrock",
      ],
      ["OllamaChatModel", () => new OllamaChatModel("llama3.2", { host: nowhere }), "ollama"],
    ])("should name the provider of a %s span as the GenAI conventions do", async (_name, make, providerName) => {
      const model = make();
      instrumentChatModel(model, { tracer });
      await settleCall(model, { messages: [user("hi")], signal: AbortSignal.abort() }, mode);
      expect(exporter.getFinishedSpans().map((span) => span.attributes["gen_ai.provider.name"])).toEqual([
        providerName,
      ]);
    });

    it("should record the frequency and presence penalties the request was sent with", async () => {
      const model = new ScriptedChatModel([textStep("ok")], { parameters: { frequencyPenalty: 0.5 } });
      instrumentChatModel(model, { tracer });
      await runCall(model, { messages: [user("hi")], parameters: { presencePenalty: 0.25 } }, mode);
      expect(model.calls[0]!.parameters).toMatchObject({ frequencyPenalty: 0.5, presencePenalty: 0.25 });
      expect(exporter.getFinishedSpans()[0]!.attributes).toMatchObject({
        "gen_ai.request.frequency_penalty": 0.5,
        "gen_ai.request.presence_penalty": 0.25,
      });
    });

    it("should record gen_ai.output.type json when the call asks for a response format, and none when it does not", async () => {
      const model = new ScriptedChatModel([textStep('{"a": 1}'), textStep("{}"), textStep("plain")]);
      instrumentChatModel(model, { tracer });
      await runCall(model, { messages: [user("hi")], responseFormat: z.object({ a: z.number() }) }, mode);
      await runCall(model, { messages: [user("hi")], responseFormat: { type: "json" } }, mode);
      await runCall(model, { messages: [user("hi")] }, mode);
      expect(exporter.getFinishedSpans().map((span) => span.attributes["gen_ai.output.type"])).toEqual([
        "json",
        "json",
        undefined,
      ]);
    });
  });
});
