import { describe, expect, it } from "vitest";
import { ScriptedChatModel, errorStep, textStep } from "../../src/testing/index.js";
import { user } from "../support/run-modes.js";

describe("ChatModel.clone", () => {
  it("should give the copy default parameters of its own: one changed in place leaves the original's as they were", async () => {
    const model = new ScriptedChatModel([textStep("original")], { parameters: { temperature: 0.2, stop: ["END"] } });
    const copy = model.clone();
    copy.parameters!.temperature = 1;
    copy.parameters!.stop!.push("STOP");
    await model.create({ messages: [user("Hi")] });
    expect(model.calls[0]!.parameters).toEqual({ temperature: 0.2, stop: ["END"] });
  });

  it("should give the copy retry settings of its own: one changed in place leaves the original's as they were", async () => {
    const model = new ScriptedChatModel([errorStep({ statusCode: 503 }), textStep("late")], {
      retry: { maxRetries: 0 },
    });
    const copy = model.clone();
    copy.retry.maxRetries = 3;
    await expect(model.create({ messages: [user("Hi")] })).rejects.toMatchObject({ statusCode: 503 });
    expect(model.calls).toHaveLength(1);
  });
});
