import { messageText, messageToolCalls, type AssistantMessage, type Message, type ToolCall } from "../core/messages.js";
import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelOutput } from "../core/output.js";
import { emptyUsage } from "../core/usage.js";

/** A person's decisions on waiting calls, by tool call id: `true` runs it, `false` or a reason refuses it. */
export type Approvals = Record<string, boolean | string>;

/** A call that waits for a person's decision. */
export interface PendingApproval<Call extends ToolCall<string, unknown> = ToolCall> {
  toolCall: Call;
  /** Why it waits, when `authorize` or the tool said. */
  reason?: string;
}

/** The calls of a transcript's last assistant turn that no tool message answers yet, with their place in it. */
export interface HeldTurn {
  /** The turn's number among the transcript's assistant messages (the `n` of `step-<n>`). */
  turn: number;
  /** Each unanswered call with its index in the turn (the `i` of `call-<i>`). */
  calls: { call: ToolCall; index: number }[];
}

/**
 * A transcript that ends on an assistant turn with tool calls, followed only by tool messages, and
 * with calls no tool message answers: the state a waiting run left. Undefined otherwise.
 */
export function heldTurn(messages: readonly Message[]): HeldTurn | undefined {
  let at = messages.length - 1;
  const answered = new Set<string>();
  for (; at >= 0 && messages[at]!.role === "tool"; at--)
    answered.add((messages[at] as { toolCallId: string }).toolCallId);
  const last = messages[at];
  if (last?.role !== "assistant" || typeof last.content === "string") return undefined;
  const calls: HeldTurn["calls"] = [];
  let index = 0;
  for (const part of last.content) {
    if (part.type !== "tool-call") continue;
    if (!answered.has(part.id)) calls.push({ call: part, index });
    index++;
  }
  if (calls.length === 0) return undefined;
  let turn = 0;
  for (let earlier = 0; earlier < at; earlier++) if (messages[earlier]!.role === "assistant") turn++;
  return { turn, calls };
}

/** Checks a run's `approvals` against the calls that wait: a decision that names no waiting call is a TypeError. */
export function checkApprovals(approvals: unknown, held: HeldTurn | undefined): Approvals | undefined {
  if (approvals === undefined) return undefined;
  if (approvals === null || typeof approvals !== "object" || Array.isArray(approvals)) {
    throw new TypeError("approvals must be an object { [toolCallId]: true | false | 'reason' }.");
  }
  const waiting = new Set(held?.calls.map(({ call }) => call.id));
  for (const [id, decision] of Object.entries(approvals)) {
    if (typeof decision !== "boolean" && typeof decision !== "string") {
      throw new TypeError(
        `approvals[${JSON.stringify(id)}] must be true, false or a reason (a string), got ${typeof decision}.`,
      );
    }
    if (!waiting.has(id)) {
      const known = waiting.size === 0 ? "no call is waiting" : `the waiting calls are ${[...waiting].join(", ")}`;
      throw new TypeError(
        `approvals names the tool call ${JSON.stringify(id)}, which is not waiting for approval (${known}). ` +
          "Pass the waiting run's messages (run.messages) with decisions on its run.pendingApprovals; a call already answered never runs again.",
      );
    }
  }
  return approvals as Approvals;
}

/** The assistant message of a transcript's turn `turn` (counted over its assistant messages). */
export function findTurn(messages: readonly Message[], turn: number): AssistantMessage {
  let seen = 0;
  for (const message of messages) if (message.role === "assistant" && seen++ === turn) return message;
  throw new Error(`no assistant turn ${turn}`);
}

/** The output of a held turn, for a resumed run that waits again before any model call: its message, no usage. */
export function heldOutput(message: AssistantMessage, model: ChatModelLike): ChatModelOutput {
  return {
    message,
    text: messageText(message),
    toolCalls: messageToolCalls(message),
    reasoning: "",
    finishReason: "tool-calls",
    usage: emptyUsage(),
    raw: undefined,
    meta: {
      toolChoice: "native",
      repairs: [],
      attempts: [],
      cacheHit: false,
      model: { providerId: model.providerId, modelId: model.modelId },
    },
  };
}
