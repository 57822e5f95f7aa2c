import { describe, expect, it } from "vitest";
import { UnsupportedFeatureError, type WarningEvent } from "../../../src/index.js";
import { ScriptedChatModel, textStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";

/** A model whose adapter declares it has no seed and no topK. */
function model(steps: number, options: ConstructorParameters<typeof ScriptedChatModel>[1] = {}) {
  const scripted = new ScriptedChatModel(
    Array.from({ length: steps }, () => textStep("ok")),
    { unsupportedParameters: ["seed", "topK"], ...options },
  );
  const warnings: WarningEvent[] = [];
  scripted.emitter.on("warning", (event) => warnings.push(event));
  return { scripted, warnings };
}

describe("Parameters the provider has no field for", () => {
  describe.each(callModes)("through %s", (mode) => {
    it("should drop a set one with one unsupported-parameter warning per model and parameter", async () => {
      const { scripted, warnings } = model(3);
      const parameters = { seed: 7, temperature: 0.2 };
      await runCall(scripted, { messages: [user("q")], parameters }, mode);
      await runCall(scripted, { messages: [user("q")], parameters }, mode);
      expect(warnings).toEqual([
        expect.objectContaining({
          code: "unsupported-parameter",
          message:
            "scripted scripted has no parameter 'seed': parameters.seed is not sent. " +
            "Leave it out for this model, or set strictParameters: true to make it an error.",
          callId: expect.any(Number),
        }),
      ]);
      // What reached the adapter: the supported parameter, not the dropped one.
      expect(scripted.calls.map((call) => call.parameters)).toEqual([{ temperature: 0.2 }, { temperature: 0.2 }]);
      expect(parameters).toEqual({ seed: 7, temperature: 0.2 }); // the caller's object is untouched

      await runCall(scripted, { messages: [user("q")], parameters: { topK: 40 } }, mode);
      expect(warnings.map((warning) => warning.message.match(/'(\w+)'/)![1])).toEqual(["seed", "topK"]);
    });

    it("should keep the process's one warning for a model that listens, when a clone dropped it unheard", async () => {
      const silent = new ScriptedChatModel([textStep("ok"), textStep("ok")], { unsupportedParameters: ["seed"] });
      const listening = silent.clone(); // the same provider, endpoint and model: one warning between them
      await runCall(silent, { messages: [user("q")], parameters: { seed: 7 } }, mode);
      const warnings: WarningEvent[] = [];
      listening.emitter.on("warning", (event) => warnings.push(event));
      await runCall(listening, { messages: [user("q")], parameters: { seed: 7 } }, mode);
      expect(warnings.map((warning) => warning.code)).toEqual(["unsupported-parameter"]);
    });

    it("should say nothing about a parameter the caller did not set", async () => {
      const { scripted, warnings } = model(1);
      await runCall(scripted, { messages: [user("q")], parameters: { temperature: 0.1, maxTokens: 50 } }, mode);
      expect(warnings).toEqual([]);
      expect(scripted.calls[0]!.parameters).toEqual({ temperature: 0.1, maxTokens: 50 });
    });

    it("should count the model's default parameters as set", async () => {
      const { scripted, warnings } = model(1, { parameters: { seed: 1 } });
      await runCall(scripted, { messages: [user("q")] }, mode);
      expect(warnings.map((warning) => warning.code)).toEqual(["unsupported-parameter"]);
      expect(scripted.calls[0]!.parameters).toEqual({});
    });

    it("should refuse a set one before any request with strictParameters: true", async () => {
      const { scripted, warnings } = model(1, { strictParameters: true });
      const { error } = await settleCall(scripted, { messages: [user("q")], parameters: { seed: 7, topK: 3 } }, mode);
      expect(UnsupportedFeatureError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ feature: "parameter:seed" });
      expect(error!.message).toMatch(/does not support parameters\.seed, parameters\.topK/);
      expect(scripted.calls).toHaveLength(0);
      expect(warnings).toEqual([]);
      // A strict model still takes what it supports.
      await runCall(scripted, { messages: [user("q")], parameters: { temperature: 0 } }, mode);
      expect(scripted.calls).toHaveLength(1);
    });
  });

  it("should refuse a name that is no parameter, naming the ones there are", () => {
    expect(() => new ScriptedChatModel([], { unsupportedParameters: ["sead" as never] })).toThrow(
      /unsupportedParameters: "sead" is not a parameter name \(one of temperature, maxTokens/,
    );
    expect(() => new ScriptedChatModel([], { unsupportedParameters: "seed" as never })).toThrow(TypeError);
  });

  it("should give a clone its own set", () => {
    const original = new ScriptedChatModel([], { unsupportedParameters: ["seed"] });
    const copy = original.clone();
    copy.unsupportedParameters.add("topK");
    expect([...original.unsupportedParameters]).toEqual(["seed"]);
  });
});
