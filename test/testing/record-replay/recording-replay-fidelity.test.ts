import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../src/index.js";
import {
  RecordingChatModel,
  ReplayChatModel,
  ScriptedChatModel,
  errorStep,
  redactSecrets,
  textStep,
  toolCallStep,
  toolCallsStep,
} from "../../../src/testing/index.js";
import { callModes, runCall, user } from "../../support/run-modes.js";

const lookup = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });
let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "keelson-cassettes-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe.each(callModes)("record and replay through %s", (mode) => {
  it("should replay a run whose ladder learned from a refused tool_choice, as the recording did", async () => {
    const cassette = join(folder, "refused.json");
    const live = new ScriptedChatModel([
      errorStep({
        statusCode: 400,
        message: "tool_choice 'required' is not supported",
        rejectedToolChoice: "required",
      }),
      toolCallStep("lookup_incident", { incident_id: "INC-001" }, { id: "call_a" }),
    ]);
    const input = { messages: [user("INC-001?")], tools: [lookup], toolChoice: "required" as const };
    const recorded = await runCall(new RecordingChatModel(live, { cassette }), input, mode);
    expect(recorded.output.toolCalls[0]!.args).toEqual({ incident_id: "INC-001" });

    const replayed = await runCall(new ReplayChatModel(cassette), input, mode);
    expect(replayed.output.toolCalls[0]!.args).toEqual({ incident_id: "INC-001" });
  });

  it("should replay a recorded error that was not retried (isRetryable false) without retrying it", async () => {
    const cassette = join(folder, "quota.json");
    const live = new ScriptedChatModel([
      errorStep({ statusCode: 429, code: "insufficient_quota", message: "quota", isRetryable: false }),
    ]);
    await expect(
      runCall(new RecordingChatModel(live, { cassette }), { messages: [user("x")] }, mode),
    ).rejects.toMatchObject({ isRetryable: false });
    expect(live.calls).toHaveLength(1);
    const replay = new ReplayChatModel(cassette);
    let retries = 0;
    replay.emitter.on("retry", () => retries++);
    await expect(runCall(replay, { messages: [user("x")] }, mode)).rejects.toMatchObject({
      statusCode: 429,
      isRetryable: false,
    });
    expect(retries).toBe(0);
  });

  it("should send the wrapped model's own default parameters and settings, and replay them", async () => {
    const cassette = join(folder, "settings.json");
    const live = new ScriptedChatModel(
      [
        toolCallsStep([
          { name: "lookup_incident", args: { incident_id: "A" } },
          { name: "lookup_incident", args: { incident_id: "B" } },
        ]),
      ],
      { parameters: { temperature: 0 }, allowParallelToolCalls: true },
    );
    const input = { messages: [user("A and B?")], tools: [lookup] };
    const recorded = await runCall(new RecordingChatModel(live, { cassette }), input, mode);
    expect(live.calls[0]!.parameters).toEqual({ temperature: 0 });
    expect(recorded.output.toolCalls).toHaveLength(2);
    const replayed = await runCall(new ReplayChatModel(cassette), input, mode);
    expect(replayed.output.toolCalls).toHaveLength(2);
  });

  it("should replay a conversation whose prompt mentions Bearer authentication", async () => {
    const cassette = join(folder, "prose.json");
    const live = new ScriptedChatModel([textStep("Send the token in the Authorization header.")]);
    const input = { messages: [user("How does Bearer authentication work in HTTP?")] };
    await runCall(new RecordingChatModel(live, { cassette }), input, mode);
    const replayed = await runCall(new ReplayChatModel(cassette), input, mode);
    expect(replayed.output.text).toBe("Send the token in the Authorization header.");
  });
});

describe("redactSecrets", () => {
  it("should scrub key-shaped values after a key name, and leave prose that only names a header alone", () => {
    const scrubbed = redactSecrets({
      json: '{"api_key": "abc123456789", "Authorization": "Basic dXNlcjpwYXNzd29yZA=="}',
      query: "https://gw.example/v1?api-key=abcdef123456&x=1",
      prose: "Send the token in the Authorization header.",
    });
    expect(scrubbed.json).not.toContain("abc123456789");
    expect(scrubbed.json).not.toContain("dXNlcjpwYXNzd29yZA");
    expect(scrubbed.query).not.toContain("abcdef123456");
    expect(scrubbed.prose).toBe("Send the token in the Authorization header.");
  });
});

describe("ReplayChatModel secrets", () => {
  it("should match an input holding one of the recording's extra secrets when given the same secrets", async () => {
    const cassette = join(folder, "gateway.json");
    const input = { messages: [user("Use gateway token tok-XYZ-998877 for the call.")] };
    await new RecordingChatModel(new ScriptedChatModel([textStep("ok")]), {
      cassette,
      secrets: ["tok-XYZ-998877"],
    }).create(input);
    expect(readFileSync(cassette, "utf8")).not.toContain("tok-XYZ-998877");
    expect((await new ReplayChatModel(cassette, { secrets: ["tok-XYZ-998877"] }).create(input)).text).toBe("ok");
  });
});
