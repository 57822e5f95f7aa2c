import { describe, expect, it } from "vitest";
import { ProviderError } from "../../../src/index.js";
import { ScriptedChatModel, errorStep, textStep } from "../../../src/testing/index.js";

const failing = () => [
  errorStep({ statusCode: 503 }),
  errorStep({ statusCode: 503 }),
  errorStep({ statusCode: 503 }),
  textStep("late"),
];
const fast = { initialDelayMs: 0, maxDelayMs: 0 };

describe("ChatModel's maxRetries option", () => {
  it("should take maxRetries in the constructor, the name a call and runTools use, as retry.maxRetries", async () => {
    const model = new ScriptedChatModel(failing(), { maxRetries: 1, retry: fast });
    expect(model.retry.maxRetries).toBe(1);
    await expect(model.create({ messages: [{ role: "user", content: "hi" }] })).rejects.toSatisfy(
      ProviderError.isInstance,
    );
    expect(model.calls).toHaveLength(2);
    // A call's own maxRetries still wins for that call.
    const again = new ScriptedChatModel(failing(), { maxRetries: 0, retry: fast });
    await expect(again.create({ messages: [{ role: "user", content: "hi" }], maxRetries: 3 })).resolves.toMatchObject({
      text: "late",
    });
  });

  it("should refuse maxRetries and retry.maxRetries that disagree, naming both, and take them when they agree", () => {
    expect(() => new ScriptedChatModel([], { maxRetries: 3, retry: { maxRetries: 1 } })).toThrow(
      "maxRetries (3) and retry.maxRetries (1) disagree: they are one setting, give it once (maxRetries: 3).",
    );
    expect(new ScriptedChatModel([], { maxRetries: 1, retry: { maxRetries: 1 } }).retry.maxRetries).toBe(1);
    expect(new ScriptedChatModel([], { maxRetries: undefined }).retry.maxRetries).toBe(2);
  });
});
