import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ChatModel, ProviderError, defineTool } from "../../src/index.js";
import {
  ScriptedChatModel,
  errorStep,
  streamStep,
  textStep,
  toolCallStep,
  toolCallsStep,
} from "../../src/testing/index.js";
import { callModes, runCall, user } from "../support/run-modes.js";

const lookup = defineTool({ name: "lookup_incident", inputSchema: z.object({ incident_id: z.string() }) });

describe("ScriptedChatModel", () => {
  it("should be a real ChatModel with provider 'scripted' and a configurable model id", () => {
    const model = new ScriptedChatModel([], { modelId: "my-agent-test" });
    expect(model).toBeInstanceOf(ChatModel);
    expect([model.providerId, model.modelId]).toEqual(["scripted", "my-agent-test"]);
    expect(new ScriptedChatModel([]).modelId).toBe("scripted");
  });

  describe.each(callModes)("through %s", (mode) => {
    it("should play its steps in order and record what reached the provider", async () => {
      const model = new ScriptedChatModel([
        toolCallStep("lookup_incident", { incident_id: "INC-001" }),
        textStep("INC-001 is an auth-api outage."),
      ]);
      const first = await runCall(model, { messages: [user("INC-001?")], tools: [lookup] }, mode);
      expect(first.output.toolCalls[0]!.args).toEqual({ incident_id: "INC-001" });
      const second = await runCall(model, { messages: [user("INC-001?"), first.output.message] }, mode);
      expect(second.output.text).toBe("INC-001 is an auth-api outage.");
      expect(model.calls).toHaveLength(2);
      expect(model.calls[0]).toMatchObject({
        tools: [{ name: "lookup_incident", parameters: lookup.parameters }],
        toolChoice: "auto",
      });
      expect(model.calls[0]).not.toHaveProperty("signal");
      expect(model.remainingSteps).toBe(0);
    });

    it("should fail clearly, naming the step count, when the script runs out", async () => {
      const model = new ScriptedChatModel([textStep("only one")]);
      await runCall(model, { messages: [user("a")] }, mode);
      await expect(runCall(model, { messages: [user("b")] }, mode)).rejects.toThrow(
        /the script has 1 step\(s\) and request 2 asked for another/,
      );
    });

    it("should compute a step from the provider input with a function step", async () => {
      const model = new ScriptedChatModel([
        (input) => textStep(`you said: ${input.messages.at(-1)!.content as string}`),
      ]);
      const { output } = await runCall(model, { messages: [user("ping")] }, mode);
      expect(output.text).toBe("you said: ping");
    });

    it("should raise the ProviderError an adapter would, from an error step's status and headers", async () => {
      const model = new ScriptedChatModel(
        [errorStep({ statusCode: 429, message: "slow down", headers: { "retry-after": "7" } })],
        {
          retry: { maxRetries: 0 },
        },
      );
      const error = (await runCall(model, { messages: [user("x")] }, mode).catch(
        (caught: unknown) => caught,
      )) as ProviderError;
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        statusCode: 429,
        reason: "rate-limit",
        isRetryable: true,
        retryAfterMs: 7000,
        message: "slow down",
      });
    });

    it("should give several calls in one reply with toolCallsStep", async () => {
      const model = new ScriptedChatModel(
        [
          toolCallsStep([
            { name: "lookup_incident", args: { incident_id: "A" } },
            { name: "lookup_incident", args: '{"incident_id": "B"}' },
          ]),
        ],
        { allowParallelToolCalls: true },
      );
      const { output } = await runCall(model, { messages: [user("x")], tools: [lookup] }, mode);
      expect(output.toolCalls.map((call) => call.args.incident_id)).toEqual(["A", "B"]);
    });
  });

  it("should stream a streamed step chunk by chunk and a text step word by word", async () => {
    const model = new ScriptedChatModel([streamStep(["a", "b"]), textStep("two words")]);
    const first = await runCall(model, { messages: [user("x")] }, "createStream");
    expect(first.chunks.filter((chunk) => chunk.type === "text-delta")).toHaveLength(2);
    const second = await runCall(model, { messages: [user("x")] }, "createStream");
    expect(
      second.chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => (chunk as { text: string }).text),
    ).toEqual(["two ", "words"]);
  });
});
