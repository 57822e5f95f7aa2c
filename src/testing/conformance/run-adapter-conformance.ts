import assert from "node:assert/strict";
import type { ChatModel } from "../../core/chat-model.js";
import type { ChatModelOptions } from "../../core/chat-model-options.js";
import { ProviderError } from "../../core/errors/provider-error.js";
import type { ChatModelInput } from "../../core/input.js";
import type { ChatModelOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { ToolDefinition } from "../../core/tool.js";
import type { AdapterConformanceOptions, ConformanceTestAPI, ExpectedToolCall } from "./adapter-conformance-options.js";
import type { ReplayServer } from "./replay-server.js";
import { startReplayServer } from "./replay-server.js";

type Mode = "create" | "stream";

interface Run {
  server: ReplayServer;
  model(options?: ChatModelOptions): ChatModel;
  /** Calls the model the suite's way (create, or createStream read to the end). */
  call(model: ChatModel, input: ChatModelInput): Promise<{ output: ChatModelOutput; chunks: ChatModelChunk[] }>;
}

const user = [{ role: "user" as const, content: "conformance" }];
const weatherTool: ToolDefinition = {
  name: "get_weather",
  description: "The weather in a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
};

/**
 * The adapter conformance suite: one set of behaviours every keelson adapter must show, run
 * against a loopback HTTP server that replays the provider's recorded answers, through both
 * `create` and `createStream`. It asserts with `node:assert`, so it runs under any framework
 * that gives `describe` and `it` (vitest, jest, mocha, node:test). Scenarios without a recording
 * are left out; the abort and response-format tests always run.
 *
 * To run it on your own adapter: make `createModel(baseURL, options)` send every request to
 * `baseURL` (a fresh loopback server per test, see `startReplayServer`) with the common options
 * passed through; give `textReply` (your provider's answer carrying a text, used for the
 * response-format rung and the retry tests), `readRequest` (where your wire format puts tools,
 * tool_choice and the response format), a `retryableError` that asks for no wait, and your
 * recorded answers as `scenarios`, each body served exactly as recorded.
 *
 * @example
 * ```ts
 * import { describe, it } from "vitest"; // or jest's globals, or "node:test"
 * import { runAdapterConformance } from "keelson/testing";
 *
 * runAdapterConformance({ describe, it }, {
 *   name: "MyChatModel",
 *   createModel: (baseURL, options) => new MyChatModel("my-model", { baseURL, apiKey: "test", ...options }),
 *   textReply: (text) => ({ create: { body: JSON.stringify(myProviderReplyWith(text)) }, stream: { body: sseOf(text) } }),
 *   readRequest: (request) => ({ tools: request.json.tools, toolChoice: request.json.tool_choice, responseFormat: … }),
 *   retryableError: { status: 429, headers: { "retry-after": "0" }, body: "{}" },
 *   scenarios: { text: { reply: { create: { body: recordedJSON }, stream: { body: recordedSSE } }, expected: { text: "…" } } },
 * });
 * ```
 */
export function runAdapterConformance(test: ConformanceTestAPI, options: AdapterConformanceOptions): void {
  test.describe(options.name, () => {
    for (const mode of options.modes ?? ["create", "stream"]) {
      test.describe(mode === "create" ? "create" : "createStream", () => defineScenarios(test, options, mode));
    }
  });
}

function defineScenarios(test: ConformanceTestAPI, options: AdapterConformanceOptions, mode: Mode): void {
  const { scenarios } = options;
  const it = (name: string, body: (run: Run) => Promise<void>) => test.it(name, () => withRun(options, mode, body));

  for (const text of scenarios.text ?? []) {
    if (!text.reply[mode]) continue;
    it(`should return the recorded text, finish reason and usage (${text.name})`, async ({ server, model, call }) => {
      server.play(text.reply[mode]!);
      const { output, chunks } = await call(model(), { messages: user });
      assert.equal(output.text, text.expected.text);
      assert.equal(output.finishReason, text.expected.finishReason ?? "stop");
      assert.deepEqual(output.toolCalls, []);
      for (const [key, value] of Object.entries(text.expected.usage ?? {})) {
        assert.equal(output.usage[key as keyof typeof output.usage], value, `usage.${key}`);
      }
      assert.equal(server.requests.length, 1);
      if (mode === "stream") {
        const deltas = chunks.filter((chunk) => chunk.type === "text-delta");
        assert.ok(deltas.length >= 2, `the text should arrive in several deltas, got ${deltas.length}`);
        assert.equal(deltas.map((chunk) => chunk.text).join(""), text.expected.text);
      }
    });
  }

  for (const toolCall of scenarios.toolCall ?? []) {
    if (!toolCall.reply[mode]) continue;
    it(`should return one tool call with parsed arguments and the provider's id (${toolCall.name})`, async ({ server, model, call }) => {
      server.play(toolCall.reply[mode]!);
      const { output } = await call(model(), { messages: user, tools: toolCall.tools });
      assert.ok((options.readRequest(server.requests[0]!).tools?.length ?? 0) > 0, "the tools should be sent");
      assertToolCalls(output, [toolCall.expected]);
      assert.equal(output.finishReason, "tool-calls");
    });
  }

  for (const parallel of scenarios.parallelToolCalls ?? []) {
    if (!parallel.reply[mode]) continue;
    it(`should return parallel tool calls in order (${parallel.name})`, async ({ server, model, call }) => {
      server.play(parallel.reply[mode]!);
      const { output } = await call(model(), { messages: user, tools: parallel.tools, parallelToolCalls: true });
      const flag = options.readRequest(server.requests[0]!).parallelToolCalls;
      if (flag !== undefined) assert.equal(flag, true, "parallel tool calls should be allowed on the wire");
      assertToolCalls(output, parallel.expected);
    });
  }

  const split = scenarios.streamedToolCallArgs;
  if (split && mode === "stream") {
    it("should stream tool-call arguments split across chunks and merge them", async ({ server, model, call }) => {
      server.play(split.reply);
      const { output, chunks } = await call(model(), { messages: user, tools: split.tools });
      const pieces = chunks.flatMap((chunk) => (chunk.type === "tool-call-delta" && chunk.argsDelta ? [chunk.argsDelta] : []));
      assert.ok(pieces.length >= 2, `the arguments should arrive in several deltas, got ${pieces.length}`);
      assert.deepEqual(JSON.parse(pieces.join("")), split.expected.args);
      const firstDelta = chunks.findIndex((chunk) => chunk.type === "tool-call-delta");
      const whole = chunks.findIndex((chunk) => chunk.type === "tool-call");
      assert.ok(firstDelta >= 0 && firstDelta < whole, "deltas should reach the caller before the validated call");
      assertToolCalls(output, [split.expected]);
    });
  }

  for (const finish of scenarios.finishReasons ?? []) {
    if (!finish.reply[mode]) continue;
    it(`should map the finish reason (${finish.name} → ${finish.expected})`, async ({ server, model, call }) => {
      server.play(finish.reply[mode]!);
      const input: ChatModelInput = finish.tools ? { messages: user, tools: finish.tools } : { messages: user };
      const { output } = await call(model({ retryOnEmptyResponse: false }), input);
      assert.equal(output.finishReason, finish.expected);
    });
  }

  for (const failure of scenarios.errors ?? []) {
    it(`should raise a ProviderError for ${failure.name}`, async ({ server, model, call }) => {
      server.play(failure.reply);
      const error: unknown = await call(model({ retry: { maxRetries: 0 } }), { messages: user }).then(
        () => assert.fail("the call should fail"),
        (caught: unknown) => caught,
      );
      assert.ok(ProviderError.isInstance(error), `expected a ProviderError, got ${String(error)}`);
      const { statusCode, reason, isRetryable, code } = failure.expected;
      if (statusCode !== undefined) assert.equal(error.statusCode, statusCode);
      assert.equal(error.reason, reason);
      assert.equal(error.isRetryable, isRetryable);
      if (code !== undefined) assert.equal(error.code, code);
      assert.ok(error.cause instanceof Error && !ProviderError.isInstance(error.cause), "the SDK's error should be the cause");
      assert.equal(server.requests.length, 1);
    });
  }

  const retryable = options.retryableError;
  if (retryable) {
    it("should send exactly one request per attempt when retrying (no hidden SDK retries)", async ({ server, model, call }) => {
      const reply = options.textReply("pong")[mode];
      if (!reply) return;
      server.play(retryable, reply);
      const { output } = await call(model({ retry: { maxRetries: 2, initialDelayMs: 1 } }), { messages: user });
      assert.equal(output.text, "pong");
      assert.equal(server.requests.length, 2);
    });

    it("should stop after maxRetries + 1 requests when every attempt fails", async ({ server, model, call }) => {
      server.play(retryable);
      const error: unknown = await call(model({ retry: { maxRetries: 1, initialDelayMs: 1 } }), { messages: user }).then(
        () => assert.fail("the call should fail"),
        (caught: unknown) => caught,
      );
      assert.ok(ProviderError.isInstance(error) && error.isRetryable, `expected a retryable ProviderError, got ${String(error)}`);
      assert.equal(server.requests.length, 2, "one request per attempt: a client retrying on its own would send more");
    });
  }

  it("should settle promptly with an AbortError when aborted during the request", async ({ server, model, call }) => {
    server.play("hold");
    const controller = new AbortController();
    const pending = call(model(), { messages: user, signal: controller.signal }).then(
      () => assert.fail("the call should be aborted"),
      (caught: unknown) => caught,
    );
    await until(() => server.requests.length === 1);
    const abortedAt = Date.now();
    controller.abort();
    const error = (await pending) as Error;
    assert.equal(error.name, "AbortError");
    assert.ok(Date.now() - abortedAt < 1000, "the call should end within a second of the abort");
  });

  it("should force a tool through the response format when 'required' is unsupported", async ({ server, model, call }) => {
    const subject = model({ toolChoiceSupport: new Set(["auto", "none"]) });
    const union = { name: "get_weather", parameters: { city: "Paris" } };
    const reply = options.textReply(JSON.stringify(subject.supportsTopLevelUnion ? union : { item: union }))[mode];
    if (!reply) return;
    server.play(reply);
    const { output } = await call(subject, { messages: user, tools: [weatherTool], toolChoice: "required" });
    const wire = options.readRequest(server.requests[0]!);
    assert.equal(wire.tools?.length ?? 0, 0, "no tools on the wire");
    assert.equal(wire.toolChoice, undefined, "no tool_choice on the wire");
    assert.equal(wire.responseFormat?.type, "json-schema", "a JSON-schema response format on the wire");
    assert.equal(output.meta.toolChoice, "response-format");
    assert.equal(output.toolCalls.length, 1);
    assert.equal(output.toolCalls[0]!.name, "get_weather");
    assert.deepEqual(output.toolCalls[0]!.args, { city: "Paris" });
    assert.match(output.toolCalls[0]!.id, /^call_[a-z0-9]{8}$/);
  });
}

async function withRun(options: AdapterConformanceOptions, mode: Mode, body: (run: Run) => Promise<void>): Promise<void> {
  const server = await startReplayServer();
  try {
    await body({
      server,
      model: (modelOptions = {}) => options.createModel(server.url, modelOptions),
      call: async (model, input) => {
        if (mode === "create") return { output: await model.create(input), chunks: [] };
        const stream = model.createStream(input);
        const chunks: ChatModelChunk[] = [];
        for await (const chunk of stream) chunks.push(chunk);
        return { output: await stream.final(), chunks };
      },
    });
  } finally {
    await server.close();
  }
}

function assertToolCalls(output: ChatModelOutput, expected: ExpectedToolCall[]): void {
  assert.deepEqual(
    output.toolCalls.map((call) => ({ name: call.name, args: call.args })),
    expected.map((call) => ({ name: call.name, args: call.args })),
  );
  expected.forEach((call, index) => {
    const id = output.toolCalls[index]!.id;
    if (call.id !== undefined) assert.equal(id, call.id);
    else assert.ok(id.length > 0, "every tool call has an id");
  });
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting for the request to reach the server");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

