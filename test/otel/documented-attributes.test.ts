// docs/events.md:80-100 — the span attributes and events of instrumentChatModel, and content parts.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryCache, defineTool, type Message } from "../../src/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { instrumentChatModel } from "../../src/otel/index.js";
import { ScriptedChatModel, textStep, toolCallStep } from "../../src/testing/index.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import { callModes, runCall, user } from "../support/run-modes.js";
import { useSpanExporter } from "../support/span-exporter.js";

const { exporter, tracer } = useSpanExporter();
const weather = defineTool({ name: "weather", inputSchema: z.object({ city: z.string() }) });
const clock = defineTool({ name: "clock", inputSchema: z.object({}) });

describe.each(callModes)("instrumentChatModel claims through %s", (mode) => {
  const server = useLoopbackServer();

  it("should record top_k, stop sequences, the penalties and output type at the start, model parameters under the call's", async () => {
    const model = new ScriptedChatModel([textStep('{"a":1}')], {
      parameters: { topK: 40, stop: ["END"], presencePenalty: 0.1 },
    });
    instrumentChatModel(model, { tracer });
    await runCall(
      model,
      {
        messages: [user("hi")],
        parameters: { stop: ["STOP", "\n\n"], frequencyPenalty: 0.2 },
        responseFormat: { type: "json" },
      },
      mode,
    );
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe("chat scripted");
    expect(span!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted",
      "gen_ai.request.top_k": 40,
      "gen_ai.request.stop_sequences": ["STOP", "\n\n"],
      "gen_ai.request.frequency_penalty": 0.2,
      "gen_ai.request.presence_penalty": 0.1,
      "gen_ai.output.type": "json",
    });
  });

  it("should record reasoning and cache-read token usage when reported, and leave them out when not", async () => {
    const model = new ScriptedChatModel([
      textStep("ok", { usage: { inputTokens: 100, outputTokens: 20, reasoningTokens: 12, cachedInputTokens: 64 } }),
      textStep("ok", { usage: { inputTokens: 3, outputTokens: 2 } }),
    ]);
    instrumentChatModel(model, { tracer });
    await runCall(model, { messages: [user("hi")] }, mode);
    await runCall(model, { messages: [user("again")] }, mode);
    const [first, second] = exporter.getFinishedSpans();
    expect(first!.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 100,
      "gen_ai.usage.output_tokens": 20,
      "gen_ai.usage.reasoning_tokens": 12,
      "gen_ai.usage.cache_read.input_tokens": 64,
    });
    expect(second!.attributes).not.toHaveProperty("gen_ai.usage.reasoning_tokens");
    expect(second!.attributes).not.toHaveProperty("gen_ai.usage.cache_read.input_tokens");
  });

  it("should record reasoning and cached tokens an OpenAI server reports (real SDK, loopback)", async () => {
    const usage = {
      prompt_tokens: 50,
      completion_tokens: 30,
      total_tokens: 80,
      prompt_tokens_details: { cached_tokens: 32 },
      completion_tokens_details: { reasoning_tokens: 16 },
    };
    const base = { id: "chatcmpl-1", created: 1, model: "o4-mini" };
    server.handle((request, response) => {
      if (request.json.stream) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        response.write(chunk({ role: "assistant", content: "ok" }, null));
        response.write(chunk({}, "stop"));
        response.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage })}\n\n`);
        response.end("data: [DONE]\n\n");
      } else {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            ...base,
            object: "chat.completion",
            choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
            usage,
          }),
        );
      }
    });
    const model = new OpenAIChatModel("o4-mini", {
      baseURL: `${server.url}/v1`,
      apiKey: "k",
      retry: { maxRetries: 0 },
    });
    instrumentChatModel(model, { tracer });
    await runCall(model, { messages: [user("hi")], parameters: { topK: 5 } }, mode);
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes).toMatchObject({
      "gen_ai.provider.name": "openai",
      "gen_ai.request.top_k": 5,
      "gen_ai.usage.input_tokens": 50,
      "gen_ai.usage.output_tokens": 30,
      "gen_ai.usage.reasoning_tokens": 16,
      "gen_ai.usage.cache_read.input_tokens": 32,
    });
  });

  it("should record keelson.tools, the rung, attempts, repair kinds and a keelson.repair span event", async () => {
    // First reply calls an unknown tool (re-asked: repair event), the second a known one without id (missing-id repair).
    const model = new ScriptedChatModel([
      toolCallStep("teleport", {}, { id: "call_x" }),
      toolCallStep("weather", { city: "Oslo" }),
    ]);
    instrumentChatModel(model, { tracer });
    await runCall(model, { messages: [user("weather?")], tools: [weather, clock], toolChoice: "required" }, mode);
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes).toMatchObject({
      "keelson.tools": ["weather", "clock"],
      "keelson.tool_choice.rung": "native",
      "keelson.attempts": 2,
      "keelson.repairs": ["missing-id"],
      "keelson.cache_hit": false,
      "gen_ai.response.finish_reasons": ["tool-calls"],
    });
    const repairs = span!.events.filter((event) => event.name === "keelson.repair");
    expect(repairs).toHaveLength(1);
    expect(repairs[0]!.attributes).toMatchObject({
      attempt: 1,
      "error.type": "ToolCallError",
      "keelson.problem": expect.stringContaining("teleport"),
    });
  });

  it("should record keelson.fallback with its rung and reason, and keelson.cache_hit on a hit", async () => {
    const model = new ScriptedChatModel([toolCallStep("weather", { city: "Oslo" }, { id: "call_1" })], {
      toolChoiceSupport: new Set(),
      cache: new MemoryCache(),
    });
    instrumentChatModel(model, { tracer });
    const input = { messages: [user("weather?")], tools: [weather], toolChoice: "required" as const };
    await runCall(model, input, mode);
    await runCall(model, input, mode);
    const [first, second] = exporter.getFinishedSpans();
    const fallback = first!.events.find((event) => event.name === "keelson.fallback");
    expect(fallback?.attributes).toMatchObject({
      "keelson.tool_choice.rung": "response-format",
      "keelson.reason": expect.any(String),
    });
    expect(first!.attributes["keelson.tool_choice.rung"]).toBe("response-format");
    expect(first!.attributes["keelson.cache_hit"]).toBe(false);
    expect(second!.attributes["keelson.cache_hit"]).toBe(true);
  });

  it("should record base64 image and file parts as blob parts, URLs as uri parts", async () => {
    const model = new ScriptedChatModel([textStep("seen")]);
    instrumentChatModel(model, { tracer, recordContent: true });
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
          { type: "file", data: "JVBERi0xLjQK", mediaType: "application/pdf", filename: "r.pdf" },
          { type: "file", data: "UklGRiQAAABXQVZF", mediaType: "audio/wav" },
          { type: "file", data: "data:image/jpeg;base64,/9j/", mediaType: "image/jpeg" },
          { type: "file", data: "https://example.com/cat.png", mediaType: "image/png" },
        ],
      },
    ];
    await runCall(model, { messages }, mode);
    const [span] = exporter.getFinishedSpans();
    const parts = JSON.parse(span!.attributes["gen_ai.input.messages"] as string)[0].parts;
    expect(parts[0]).toEqual({ type: "blob", modality: "image", mime_type: "image/png", content: "iVBORw0KGgo=" });
    expect(parts[1]).toMatchObject({ type: "blob", mime_type: "application/pdf", content: "JVBERi0xLjQK" });
    expect(parts[2]).toEqual({ type: "blob", modality: "audio", mime_type: "audio/wav", content: "UklGRiQAAABXQVZF" });
    expect(parts[3]).toMatchObject({
      type: "uri",
      modality: "image",
      mime_type: "image/jpeg",
      uri: "data:image/jpeg;base64,/9j/",
    });
    expect(parts[4]).toEqual({
      type: "uri",
      modality: "image",
      mime_type: "image/png",
      uri: "https://example.com/cat.png",
    });
  });

  it("should record reasoning parts of the reply", async () => {
    const model = new ScriptedChatModel([textStep("42", { reasoning: "think" })]);
    instrumentChatModel(model, { tracer, recordContent: true });
    await runCall(model, { messages: [user("q")] }, mode);
    const [span] = exporter.getFinishedSpans();
    const output = JSON.parse(span!.attributes["gen_ai.output.messages"] as string);
    expect(output[0].parts).toEqual(
      expect.arrayContaining([
        { type: "reasoning", content: "think" },
        { type: "text", content: "42" },
      ]),
    );
    expect(output[0].finish_reason).toBe("stop");
  });
});
