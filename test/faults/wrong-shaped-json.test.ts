import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { ChatModelError } from "../../src/index.js";
import type { ChatModel, ChatModelInput, ToolDefinition } from "../../src/index.js";
import { encodeEvents } from "../support/aws-event-stream.js";
import { replyOf, useBedrockLoopback } from "../support/bedrock-loopback.js";
import { sendEventStream, sendJSON } from "../support/loopback-http2-server.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import { callModes, type CallMode } from "../support/run-modes.js";
import { pathsOf, replaced } from "../support/value-paths.js";

/**
 * Provider JSON of the wrong shape, generated: a valid reply (text, reasoning, a tool call, usage)
 * with one value somewhere in it replaced by another JSON value, or removed, is served over loopback
 * and read by the real SDK. Every call ends in a valid output or keelson's own error — never another
 * error (a TypeError from reading `undefined`), never a hang (each case is bounded).
 */
const runs = 120;
const caseTimeoutMs = 5_000;

const weather: ToolDefinition = {
  name: "get_weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const input: ChatModelInput = { messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weather] };
const quiet = { retry: { maxRetries: 0 }, maxRepairAttempts: 0 } as const;

const replacement = fc.oneof(
  fc.constantFrom(null, undefined, "x", "", 0, -1, 1.5, true, [], {}, [null], ["x"], { x: 1 }, "{", 1e308),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A mutation: which path (an index into the paths, modulo their number) and what goes there. */
const mutation = fc.record({ pick: fc.nat(), value: replacement });

function mutated(valid: unknown, { pick, value }: { pick: number; value: unknown }): unknown {
  const paths = pathsOf(valid);
  return replaced(valid, paths[pick % paths.length]!, value);
}

async function expectOutputOrOwnError(model: ChatModel, mode: CallMode, shown: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<"hang">((resolve) => {
    timer = setTimeout(() => resolve("hang"), caseTimeoutMs);
  });
  const call = (async () => {
    if (mode === "create") return model.create(input);
    const stream = model.createStream(input);
    for await (const _chunk of stream);
    return stream.final();
  })();
  try {
    const outcome = await Promise.race([
      call.then(
        (output) => ({ output }),
        (error: unknown) => ({ error }),
      ),
      hang,
    ]);
    expect(outcome, `a hang on ${shown()}`).not.toBe("hang");
    if (outcome === "hang") return;
    if ("error" in outcome) {
      expect(
        ChatModelError.isInstance(outcome.error),
        `not keelson's error: ${String(outcome.error)} on ${shown()}`,
      ).toBe(true);
    } else {
      const { output } = outcome;
      expect(typeof output.text).toBe("string");
      expect(typeof output.reasoning).toBe("string");
      for (const call of output.toolCalls) {
        expect(call.name).toBe("get_weather");
        expect(typeof (call.args as { city?: unknown }).city).toBe("string");
      }
      for (const count of Object.values(output.usage)) expect(typeof count).toBe("number");
    }
  } finally {
    clearTimeout(timer);
  }
}

const openAICompletion = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o-mini",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: "Checking.",
        refusal: null,
        reasoning_content: "The user wants weather.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      finish_reason: "tool_calls",
    },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 } },
};
const openAIChunks = [
  { choices: [{ index: 0, delta: { role: "assistant", content: "Check", reasoning_content: "Weather." } }] },
  { choices: [{ index: 0, delta: { content: "ing." } }] },
  {
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } }],
        },
      },
    ],
  },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] } }] },
  { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
  { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
].map((chunk) => ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", ...chunk }));

const ollamaResponse = {
  model: "llama3.2",
  created_at: "2025-01-01T00:00:00Z",
  message: {
    role: "assistant",
    content: "Checking.",
    thinking: "Weather.",
    tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }],
  },
  done: true,
  done_reason: "stop",
  prompt_eval_count: 10,
  eval_count: 5,
};
const ollamaLines = [
  {
    model: "llama3.2",
    created_at: "x",
    message: { role: "assistant", content: "", thinking: "Weather." },
    done: false,
  },
  { model: "llama3.2", created_at: "x", message: { role: "assistant", content: "Checking." }, done: false },
  {
    model: "llama3.2",
    created_at: "x",
    message: {
      role: "assistant",
      content: "",
      tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }],
    },
    done: false,
  },
  { ...ollamaResponse, message: { role: "assistant", content: "" } },
];

const bedrockReply = replyOf({
  output: {
    message: {
      role: "assistant",
      content: [
        { reasoningContent: { reasoningText: { text: "Weather.", signature: "sig" } } },
        { text: "Checking." },
        { toolUse: { toolUseId: "tooluse_1", name: "get_weather", input: { city: "Paris" } } },
      ],
    },
  },
  stopReason: "tool_use",
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
});

describe("wrong-shaped provider JSON through the real SDKs", () => {
  describe("OpenAIChatModel", () => {
    const server = useLoopbackServer();
    let body = "";
    let streamed = false;

    it.each(callModes)(
      `should end each of ${runs} wrong-shaped replies through %s in an output or its own error`,
      async (mode) => {
        server.handle((_request, response) => {
          response.writeHead(200, { "content-type": streamed ? "text/event-stream" : "application/json" });
          response.end(body);
        });
        const model = new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/v1`, apiKey: "sk-fuzz", ...quiet });
        await fc.assert(
          fc.asyncProperty(mutation, async (change) => {
            streamed = mode === "createStream";
            body = streamed
              ? (mutated(openAIChunks, change) as unknown[])
                  .map((chunk) => `data: ${JSON.stringify(chunk ?? null)}\n\n`)
                  .join("") + "data: [DONE]\n\n"
              : JSON.stringify(mutated(openAICompletion, change) ?? null);
            await expectOutputOrOwnError(model, mode, () => body);
          }),
          { numRuns: runs },
        );
      },
    );
  });

  describe("OllamaChatModel", () => {
    const server = useLoopbackServer();
    let body = "";
    let streamed = false;

    it.each(callModes)(
      `should end each of ${runs} wrong-shaped replies through %s in an output or its own error`,
      async (mode) => {
        server.handle((_request, response) => {
          response.writeHead(200, { "content-type": streamed ? "application/x-ndjson" : "application/json" });
          response.end(body);
        });
        const model = new OllamaChatModel("llama3.2", { host: server.url, ...quiet });
        await fc.assert(
          fc.asyncProperty(mutation, async (change) => {
            streamed = mode === "createStream";
            body = streamed
              ? (mutated(ollamaLines, change) as unknown[]).map((line) => `${JSON.stringify(line ?? null)}\n`).join("")
              : JSON.stringify(mutated(ollamaResponse, change) ?? null);
            await expectOutputOrOwnError(model, mode, () => body);
          }),
          { numRuns: runs },
        );
      },
    );
  });

  describe("BedrockChatModel", () => {
    const bedrock = useBedrockLoopback();

    it.each(callModes)(
      `should end each of ${runs} wrong-shaped replies through %s in an output or its own error`,
      async (mode) => {
        let shown = "";
        let send: (response: Parameters<typeof sendJSON>[0]) => void = () => undefined;
        bedrock.server.handle((_request, response) => send(response));
        const model = bedrock.model("us.anthropic.claude-3-7-sonnet-20250219-v1:0", quiet);
        await fc.assert(
          fc.asyncProperty(mutation, async (change) => {
            if (mode === "create") {
              const converse = mutated(bedrockReply.converse, change);
              shown = JSON.stringify(converse ?? null);
              send = (response) => sendJSON(response, 200, converse ?? null);
            } else {
              // Each event stays an object with one member (the frame's event type); its payload is what changes.
              const events = bedrockReply.events.map((event) => Object.entries(event)[0]!);
              const payloads = mutated(
                events.map(([, payload]) => payload),
                change,
              ) as unknown[];
              const changed = events.map(([type], index) => ({ [type]: payloads[index] ?? {} }));
              shown = JSON.stringify(changed);
              send = (response) => sendEventStream(response, encodeEvents(changed));
            }
            await expectOutputOrOwnError(model, mode, () => shown);
          }),
          { numRuns: runs },
        );
      },
    );
  });
});
