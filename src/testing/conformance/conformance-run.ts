import assert from "node:assert/strict";
import type { ChatModel } from "../../core/model/chat-model.js";
import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import type { ChatModelInput } from "../../core/input.js";
import type { ChatModelOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { AdapterConformanceOptions, ExpectedToolCall } from "./adapter-conformance-options.js";
import type { ReplayServer } from "./replay-server.js";
import { startReplayServer } from "./replay-server.js";

export type Mode = "create" | "stream";

/** The one message every case sends. */
export const user = [{ role: "user" as const, content: "conformance" }];

/** Retries that wait a millisecond, so the retry cases count requests, not time. */
export const fastRetry = (maxRetries: number) => ({ retry: { maxRetries, initialDelayMs: 1, maxDelayMs: 1 } });

/** What one test of the suite works with: its own server, and the adapter pointed at it. */
export interface Run {
  server: ReplayServer;
  model(options?: ChatModelOptions): ChatModel;
  /** Calls the model the suite's way (create, or createStream read to the end). */
  call(model: ChatModel, input: ChatModelInput): Promise<{ output: ChatModelOutput; chunks: ChatModelChunk[] }>;
}

export async function withRun<S extends ReplayServer>(
  options: AdapterConformanceOptions<S>,
  mode: Mode,
  body: (run: Run) => Promise<void>,
): Promise<void> {
  const server = await (options.server ?? (startReplayServer as () => Promise<S>))();
  try {
    await body({
      server,
      model: (modelOptions = {}) => options.createModel(server.url, modelOptions, server),
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

/** The calls' names and arguments, in order, each with a distinct non-empty id. */
export function assertToolCalls(output: ChatModelOutput, expected: readonly ExpectedToolCall[]): void {
  assert.deepEqual(
    output.toolCalls.map((call) => ({ name: call.name, args: call.args })),
    expected.map((call) => ({ name: call.name, args: call.args })),
  );
  const ids = output.toolCalls.map((call) => call.id);
  assert.ok(
    ids.every((id) => typeof id === "string" && id.length > 0),
    "every tool call has an id",
  );
  assert.equal(new Set(ids).size, ids.length, `each tool call has its own id, got ${JSON.stringify(ids)}`);
}

/** The call's rejection; fails when it resolves. */
export async function rejection(pending: Promise<unknown>, what = "the call should fail"): Promise<unknown> {
  return pending.then(
    () => assert.fail(what),
    (caught: unknown) => caught,
  );
}

export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting for the request to reach the server");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
