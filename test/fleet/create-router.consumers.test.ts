import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/eval/index.js";
import { createRouter, type ChatModelOptions } from "../../src/index.js";
import { instrumentChatModel } from "../../src/otel/index.js";
import { ScriptedChatModel, errorStep, textStep } from "../../src/testing/index.js";
import { useSpanExporter } from "../support/span-exporter.js";

const ask = { messages: [{ role: "user" as const, content: "Say hello." }] };

describe("createRouter as a model of evaluate and instrumentChatModel", () => {
  const { exporter, tracer } = useSpanExporter();

  it("should give one span per router call, with the member's move as a span event", async () => {
    const a = new ScriptedChatModel([errorStep({ statusCode: 503 })], { modelId: "a", retry: { maxRetries: 0 } });
    const b = new ScriptedChatModel([textStep("Hello.")], { modelId: "b" });
    const model = createRouter([a, b]);
    const stop = instrumentChatModel(model, { tracer });
    await model.create(ask);
    stop();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([`chat ${model.modelId}`]);
    expect(spans[0]!.events.map((event) => event.name)).toContain("keelson.fallback");
  });

  it("should be evaluated through a factory that builds its members with each profile's options", async () => {
    const built: ChatModelOptions[] = [];
    const factory = (options: ChatModelOptions) => {
      built.push(options);
      return createRouter([
        // Two of each: evaluate's uncounted warm-up request, then the case.
        new ScriptedChatModel([errorStep({ statusCode: 500 }), errorStep({ statusCode: 500 })], {
          ...options,
          modelId: "a",
          retry: { maxRetries: 0 },
        }),
        new ScriptedChatModel([textStep("Hello there!"), textStep("Hello there!")], { ...options, modelId: "b" }),
      ]);
    };
    const report = await evaluate({
      cases: [{ name: "hello", messages: ask.messages, expect: { text: { includes: ["hello"] } } }],
      models: [factory],
      profiles: ["native", "prompt"],
    });
    expect(report.rows.map((row) => [row.profile, row.successes])).toEqual([
      ["native", 1],
      ["prompt", 1],
    ]);
    expect(built.some((options) => options.toolChoiceSupport !== undefined)).toBe(true);
  });

  it("should refuse, as an instance, a profile's capability options it cannot take, naming the factory to pass", async () => {
    const router = createRouter([new ScriptedChatModel([textStep("Hello there!")], { modelId: "a" })]);
    await expect(
      evaluate({ cases: [{ name: "hello", messages: ask.messages }], models: [router], profiles: ["prompt"] }),
    ).rejects.toThrow(/pass a factory that builds its members/);
  });
});
