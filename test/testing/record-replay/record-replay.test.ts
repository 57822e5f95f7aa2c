import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import { ProviderError, defineTool } from "../../../src/index.js";
import {
  RecordingChatModel,
  ReplayChatModel,
  ScriptedChatModel,
  errorStep,
  rawStep,
  redactSecrets,
  textStep,
  toolCallStep,
} from "../../../src/testing/index.js";
import { sendJSON, startLoopbackServer } from "../../support/loopback-server.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const lookup = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });
let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "keelson-cassette-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A tiny agent: look the incident up, then answer. */
async function agent(model: import("../../../src/index.js").ChatModel, mode: (typeof callModes)[number]) {
  const messages: import("../../../src/index.js").Message[] = [user("What is INC-001?")];
  const first = await runCall(model, { messages, tools: [lookup], toolChoice: "required" }, mode);
  messages.push(first.output.message, {
    role: "tool",
    toolCallId: first.output.toolCalls[0]!.id,
    toolName: "lookup_incident",
    content: "auth-api outage",
  });
  const second = await runCall(model, { messages, tools: [lookup], toolChoice: "none" }, mode);
  return second.output.text;
}

describe("RecordingChatModel and ReplayChatModel", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should record an agent run once and replay it offline, identically", async () => {
      const cassette = join(folder, "agent.json");
      const live = new ScriptedChatModel(
        [
          toolCallStep("lookup_incident", { incident_id: "INC-001" }, { id: "call_fixed01" }),
          textStep("It is an auth-api outage."),
        ],
        {
          toolChoiceSupport: ["auto", "none", "required"],
        },
      );
      const recorder = new RecordingChatModel(live, { cassette });
      expect(await agent(recorder, mode)).toBe("It is an auth-api outage.");
      expect(live.calls).toHaveLength(2);

      const replay = new ReplayChatModel(cassette);
      expect([replay.providerId, replay.modelId, [...replay.toolChoiceSupport]]).toEqual([
        "scripted",
        "scripted",
        ["auto", "none", "required"],
      ]);
      expect(await agent(replay, mode)).toBe("It is an auth-api outage.");
      expect(await agent(new ReplayChatModel(cassette), mode === "create" ? "createStream" : "create")).toBe(
        "It is an auth-api outage.",
      );
    });

    it("should record the parameters the model drops, so a replay drops and warns the same", async () => {
      const cassette = join(folder, "dropped.json");
      const live = new ScriptedChatModel([textStep("hi")], { unsupportedParameters: ["seed"] });
      const input = { messages: [user("Hello")], parameters: { seed: 7, temperature: 0 } };
      await runCall(new RecordingChatModel(live, { cassette }), input, mode);
      expect(live.calls[0]!.parameters).toEqual({ temperature: 0 });

      const replay = new ReplayChatModel(cassette);
      const warnings: string[] = [];
      replay.emitter.on("warning", (event) => warnings.push(event.code));
      expect([...replay.unsupportedParameters]).toEqual(["seed"]);
      expect((await runCall(replay, input, mode)).output.text).toBe("hi");
      expect(warnings).toEqual(["unsupported-parameter"]);
    });

    it("should fail loudly on an input it has not seen, with a diff of the nearest recorded input", async () => {
      const cassette = join(folder, "one.json");
      await runCall(
        new RecordingChatModel(new ScriptedChatModel([textStep("hi")]), { cassette }),
        { messages: [user("Hello there")] },
        mode,
      );
      const replay = new ReplayChatModel(cassette);
      const error = await runCall(replay, { messages: [user("Hello, there")] }, mode).catch(
        (caught: unknown) => caught as Error,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/no recording of this provider input/);
      expect((error as Error).message).toContain('-       "content": "Hello there",');
      expect((error as Error).message).toContain('+       "content": "Hello, there",');
    });

    it("should replay a recorded provider error as a ProviderError", async () => {
      const cassette = join(folder, "error.json");
      const recorder = new RecordingChatModel(
        new ScriptedChatModel([errorStep({ statusCode: 404, message: "model not found" })]),
        { cassette },
      );
      await expect(runCall(recorder, { messages: [user("x")] }, mode)).rejects.toMatchObject({ statusCode: 404 });
      const error = await runCall(new ReplayChatModel(cassette), { messages: [user("x")] }, mode).catch(
        (caught: unknown) => caught,
      );
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 404, message: "model not found" });
    });

    it("should replay tools with a final answer on the recorded rung, whichever way the provider took both", async () => {
      const answer = z.object({ summary: z.string() });
      const input = { messages: [user("What is INC-001?")], tools: [lookup], responseFormat: answer };
      for (const combines of [true, false]) {
        const cassette = join(folder, `answer-${combines}.json`);
        const step = combines
          ? textStep('{"summary":"outage"}')
          : toolCallStep("keelson_final_answer", { summary: "outage" });
        const live = new ScriptedChatModel([step], { supportsResponseFormatWithTools: combines });
        await runCall(new RecordingChatModel(live, { cassette }), input, mode);
        const replay = new ReplayChatModel(cassette);
        expect(replay.supportsResponseFormatWithTools).toBe(combines);
        const { output } = await runCall(replay, input, mode);
        expect(output.object).toEqual({ summary: "outage" });
      }
    });
  });

  it("should record a real adapter's exchange (through the Ollama SDK) and replay it with no server", async () => {
    const server = await startLoopbackServer((_request, response) =>
      sendJSON(response, 200, {
        model: "llama3.2",
        created_at: "2026-01-01T00:00:00Z",
        message: { role: "assistant", content: "Pong." },
        done: true,
        done_reason: "stop",
        prompt_eval_count: 4,
        eval_count: 2,
      }),
    );
    const cassette = join(folder, "ollama.json");
    const recorder = new RecordingChatModel(new OllamaChatModel("llama3.2", { host: server.url }), { cassette });
    expect((await recorder.create({ messages: [user("Ping?")] })).text).toBe("Pong.");
    await server.close();

    const replay = new ReplayChatModel(cassette);
    expect(replay.providerId).toBe("ollama");
    const output = await replay.create({ messages: [user("Ping?")] });
    expect(output.text).toBe("Pong.");
    expect(output.usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: 6 });
  });

  it("should never write credentials into a cassette", async () => {
    const cassette = join(folder, "secrets.json");
    const leaky = new ScriptedChatModel([
      errorStep(new Error("401: bad key sk-live-SENTINEL-abcdef123456 for gateway tok-XYZ-998877")),
    ]);
    const recorder = new RecordingChatModel(leaky, { cassette, secrets: ["tok-XYZ-998877"], retry: { maxRetries: 0 } });
    await expect(recorder.create({ messages: [user("Authorization: Bearer abcdefghijklmnop")] })).rejects.toThrow();
    const written = readFileSync(cassette, "utf8");
    expect(written).not.toContain("SENTINEL");
    expect(written).not.toContain("tok-XYZ-998877");
    expect(written).not.toContain("abcdefghijklmnop");
    expect(written).toContain("[REDACTED]");
    expect(redactSecrets({ key: "AKIAABCDEFGHIJKLMNOP", ok: "plain text" })).toEqual({
      key: "[REDACTED]",
      ok: "plain text",
    });
  });
});

describe("ReplayChatModel across turns", () => {
  it("should replay a multi-turn agent whose tool-call ids keelson made up, as on Ollama", async () => {
    const cassette = join(folder, "made-up-ids.json");
    // No ids from the provider and a forced call read from JSON: keelson generates random ids.
    const live = new ScriptedChatModel(
      [
        rawStep('{"name": "lookup_incident", "parameters": {"incident_id": "INC-001"}}'),
        textStep("It is an auth-api outage."),
      ],
      {
        toolChoiceSupport: [],
      },
    );
    expect(await agent(new RecordingChatModel(live, { cassette }), "create")).toBe("It is an auth-api outage.");
    expect(await agent(new ReplayChatModel(cassette), "create")).toBe("It is an auth-api outage.");
    expect(await agent(new ReplayChatModel(cassette), "createStream")).toBe("It is an auth-api outage.");
  });
});
