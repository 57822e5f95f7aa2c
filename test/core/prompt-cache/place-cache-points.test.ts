import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/index.js";
import {
  carriesNoContent,
  isTemporaryMessage,
  markTemporary,
  maxCachePoints,
  placeCachePoints,
} from "../../../src/core/prompt-cache/index.js";

const system = (content: string): Message => ({ role: "system", content });
const user = (content: string): Message => ({ role: "user", content });
const tool = (content: string): Message => ({ role: "tool", toolCallId: "c1", toolName: "t", content });

const anyMessage = fc.oneof(
  fc.string().map(system),
  fc.string().map(user),
  fc.string().map((content): Message => ({ role: "assistant", content })),
  fc.string().map(tool),
);
/** A conversation where some messages are keelson's temporary ones. */
const conversation = fc
  .array(fc.tuple(anyMessage, fc.boolean()), { maxLength: 12 })
  .map((entries) => entries.map(([message, temporary]) => (temporary ? markTemporary(message)[0]! : message)));
const callerPoints = fc.record({
  system: fc.boolean(),
  tools: fc.integer({ min: 0, max: 5 }),
  messages: fc.uniqueArray(fc.integer({ min: 0, max: 11 }), { maxLength: 5 }).map((list) => new Set(list)),
});

function count(points: ReturnType<typeof placeCachePoints>): number {
  return (points.tools ? 1 : 0) + (points.system === undefined ? 0 : 1) + (points.message === undefined ? 0 : 1);
}

describe("placeCachePoints", () => {
  it("should place the system prompt, the tools and the last message", () => {
    const messages = [system("rules"), user("a"), { role: "assistant", content: "b" } as Message, user("c")];
    expect(placeCachePoints(messages, { tools: true })).toEqual({ tools: true, system: 0, message: 3 });
  });

  it("should never place a point on a temporary message, walking back to the last one that takes it", () => {
    const messages = [system("rules"), user("question"), ...markTemporary(user("guidance"), system("note"))];
    expect(placeCachePoints(messages, { tools: false })).toEqual({ tools: false, system: 0, message: 1 });
  });

  it("should walk back past the messages a provider refuses", () => {
    const messages = [user("question"), { role: "assistant", content: "calling" } as Message, tool("42"), tool("43")];
    expect(placeCachePoints(messages, { tools: false, refuses: (each) => each.role === "tool" }).message).toBe(1);
  });

  it("should tell which messages send no block a point can follow: blank, empty or reasoning only", () => {
    const thinking: Message = { role: "assistant", content: [{ type: "reasoning", text: "hm", signature: "sig" }] };
    const messages = [user("question"), thinking, user("  ")];
    expect(placeCachePoints(messages, { tools: false, refuses: carriesNoContent }).message).toBe(0);
    expect(carriesNoContent({ role: "assistant", content: [{ type: "text", text: "hi" }] })).toBe(false);
  });

  it("should keep to four with the caller's own points, the latest first, never placing one twice", () => {
    const messages = [system("rules"), user("a"), user("b")];
    const caller = { tools: 2, messages: new Set([1]) };
    // Three of the caller's: one left, for the latest point.
    expect(placeCachePoints(messages, { tools: true, caller })).toEqual({ tools: false, message: 2 });
    expect(placeCachePoints(messages, { tools: true, caller: { tools: 1 } })).toEqual({
      tools: false,
      message: 2,
      system: 0,
    });
    expect(placeCachePoints(messages, { tools: true, caller: { system: true, messages: new Set([2]) } })).toEqual({
      tools: true,
    });
    expect(placeCachePoints(messages, { tools: true, caller: { tools: 4 } })).toEqual({ tools: false });
  });

  it("should hold for any conversation: at most four with the caller's, never on a temporary or refused message, the last one that takes it", () => {
    fc.assert(
      fc.property(conversation, fc.boolean(), callerPoints, fc.boolean(), (messages, tools, caller, refuseTools) => {
        const refuses = refuseTools ? (message: Message) => message.role === "tool" : undefined;
        const points = placeCachePoints(messages, { tools, caller, refuses });
        const callerCount = (caller.system ? 1 : 0) + caller.tools + caller.messages.size;
        expect(count(points)).toBeLessThanOrEqual(Math.max(0, maxCachePoints - callerCount));
        if (points.tools) expect(tools && caller.tools === 0).toBe(true);
        for (const index of [points.system, points.message]) {
          if (index === undefined) continue;
          expect(caller.messages.has(index)).toBe(false);
          expect(isTemporaryMessage(messages[index])).toBe(false);
          if (refuseTools) expect(messages[index]!.role).not.toBe("tool");
        }
        if (points.system !== undefined) expect(messages[points.system]!.role).toBe("system");
        if (points.message !== undefined) {
          const eligible = (message: Message) =>
            message.role !== "system" && !(refuseTools && message.role === "tool") && !isTemporaryMessage(message);
          expect(eligible(messages[points.message]!)).toBe(true);
          expect(messages.slice(points.message + 1).some(eligible)).toBe(false);
        }
      }),
    );
  });
});
