// docs/events.md:5-8 — `callId` is the call's number in the process (from 1, across all models):
// every event of a call carries the same, calls in flight at once have different ones.
import { describe, expect, it } from "vitest";
import type { ChatModel } from "../../src/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { ScriptedChatModel, errorStep, textStep } from "../../src/testing/index.js";
import { useLoopbackServer } from "../support/loopback-server.js";
import { answerWithText } from "../support/openai-wire.js";
import { callModes, runCall, user } from "../support/run-modes.js";

const events = [
  "start",
  "newToken",
  "retry",
  "repair",
  "fallback",
  "cacheHit",
  "warning",
  "success",
  "error",
  "finish",
] as const;

function recordIds(model: ChatModel, into: { model: string; event: string; callId: number }[], name: string): void {
  for (const event of events)
    model.emitter.on(
      event,
      (payload: { callId: number }) => void into.push({ model: name, event, callId: payload.callId }),
    );
}

describe.each(callModes)("callId through %s", (mode) => {
  const server = useLoopbackServer();

  it("should number calls in the process across models of different classes, increasing, with one id per call", async () => {
    answerWithText(server, "ok");
    const openai = new OpenAIChatModel("gpt-4o-mini", {
      baseURL: `${server.url}/v1`,
      apiKey: "k",
      retry: { maxRetries: 0 },
    });
    const scripted = new ScriptedChatModel([textStep("one"), textStep("two")]);
    const seen: { model: string; event: string; callId: number }[] = [];
    recordIds(openai, seen, "openai");
    recordIds(scripted, seen, "scripted");

    await runCall(scripted, { messages: [user("a")] }, mode);
    await runCall(openai, { messages: [user("b")] }, mode);
    await runCall(scripted, { messages: [user("c")] }, mode);

    const starts = seen.filter(({ event }) => event === "start");
    expect(starts.map(({ model }) => model)).toEqual(["scripted", "openai", "scripted"]);
    const ids = starts.map(({ callId }) => callId);
    for (const id of ids) expect(Number.isInteger(id) && id >= 1).toBe(true);
    // Numbered per process: consecutive calls (nothing else runs in this file at the time) get consecutive numbers.
    expect(ids[1]).toBe(ids[0]! + 1);
    expect(ids[2]).toBe(ids[1]! + 1);
    // Every event of a call carries its start's id.
    for (const [index, id] of ids.entries()) {
      const ofCall = seen.filter((entry) => entry.callId === id);
      expect(ofCall.every((entry) => entry.model === starts[index]!.model)).toBe(true);
      expect(ofCall.map(({ event }) => event).filter((event) => event !== "newToken")).toEqual([
        "start",
        "success",
        "finish",
      ]);
    }
  });

  it("should give calls in flight at once on two models different ids, each kept on all of its events", async () => {
    const a = new ScriptedChatModel([errorStep({ statusCode: 503, message: "busy" }), textStep("a", { delayMs: 20 })], {
      retry: { initialDelayMs: 5, maxDelayMs: 5 },
    });
    const b = new ScriptedChatModel([textStep("b", { delayMs: 10 })]);
    const seen: { model: string; event: string; callId: number }[] = [];
    recordIds(a, seen, "a");
    recordIds(b, seen, "b");
    const input = { messages: [user("same input")] };
    await Promise.all([runCall(a, input, mode), runCall(b, input, mode)]);
    const [idA, idB] = ["a", "b"].map(
      (name) => seen.find((entry) => entry.model === name && entry.event === "start")!.callId,
    );
    expect(idA).not.toBe(idB);
    expect(idB).toBeGreaterThan(idA!);
    expect(seen.filter((entry) => entry.model === "a").every((entry) => entry.callId === idA)).toBe(true);
    expect(seen.filter((entry) => entry.model === "b").every((entry) => entry.callId === idB)).toBe(true);
    expect(
      seen
        .filter((entry) => entry.callId === idA)
        .map(({ event }) => event)
        .filter((event) => event !== "newToken"),
    ).toEqual(["start", "retry", "success", "finish"]);
  });

  it("should keep one id across an Ollama call whose events include a fallback and a repair", async () => {
    // Ollama has an empty support set: a forced tool goes through `format` (fallback event); a bad reply is repaired.
    let asked = 0;
    server.handle((request, response) => {
      asked += 1;
      const content = asked === 1 ? "not json at all" : JSON.stringify({ name: "lookup", arguments: { id: "INC-1" } });
      const message = { role: "assistant", content };
      const done = {
        model: "llama3.2",
        created_at: "2024-01-01T00:00:00Z",
        done: true,
        done_reason: "stop",
        prompt_eval_count: 1,
        eval_count: 1,
      };
      if (request.json?.stream) {
        response.writeHead(200, { "content-type": "application/x-ndjson" });
        response.write(
          JSON.stringify({ model: "llama3.2", created_at: "2024-01-01T00:00:00Z", message, done: false }) + "\n",
        );
        response.end(JSON.stringify({ ...done, message: { role: "assistant", content: "" } }) + "\n");
      } else {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ ...done, message }));
      }
    });
    const model = new OllamaChatModel("llama3.2", { host: server.url, retry: { maxRetries: 0 } });
    const seen: { model: string; event: string; callId: number }[] = [];
    recordIds(model, seen, "ollama");
    const tool = {
      name: "lookup",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    };
    const { output } = await runCall(
      model,
      { messages: [user("look up INC-1")], tools: [tool], toolChoice: "required" },
      mode,
    );
    expect(output.toolCalls[0]?.args).toEqual({ id: "INC-1" });
    const names = seen.map(({ event }) => event);
    expect(names).toContain("fallback");
    expect(names).toContain("repair");
    expect(new Set(seen.map(({ callId }) => callId)).size).toBe(1);
  });
});
