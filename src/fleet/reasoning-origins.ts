import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { AssistantContentPart, Message, ReasoningPart, ToolCall } from "../core/messages.js";

/** How many pieces of reasoning a router remembers the origin of (the oldest are forgotten first). */
const remembered = 10_000;

/** Ids of model classes, so that a family is named by a string. */
const classIds = new WeakMap<object, number>();
let nextClassId = 0;

/**
 * A member's reasoning family: its provider and its class. Reasoning one member's provider signed or
 * encrypted reads back on a member of the same family (another key or region of one provider), not
 * on another provider's, nor on another API of the same one (OpenAI's chat completions and Responses).
 */
export function familyOf(model: ChatModelLike): string {
  const prototype = Object.getPrototypeOf(model) as object | null;
  let id = prototype === null ? undefined : classIds.get(prototype);
  if (prototype !== null && id === undefined) classIds.set(prototype, (id = nextClassId++));
  return `${model.providerId}#${id ?? "none"}`;
}

/**
 * What only its own provider can read back: a reasoning part's signature, encrypted content or item
 * id; a tool call's signature (Gemini's thought signature).
 */
function opaqueData(part: ReasoningPart | ToolCall): string[] {
  const data: string[] = [];
  const values = part.type === "reasoning" ? [part.signature, part.redactedData, part.id] : [part.signature];
  for (const value of values) if (typeof value === "string" && value !== "") data.push(value);
  return data;
}

function carriesOpaqueData(part: AssistantContentPart | undefined): part is ReasoningPart | ToolCall {
  return part?.type === "reasoning" || part?.type === "tool-call";
}

/**
 * The provider each piece of reasoning a router's members returned came from, so that a
 * conversation moved to another provider's member leaves it out: that provider would refuse it
 * (a signature it cannot check, content it cannot decrypt, an item it never issued). Reasoning the
 * router did not see come back (from another process, or written by hand) is left to each
 * adapter, which sends only the kinds its provider's API reads.
 */
export class ReasoningOrigins {
  readonly #origins = new Map<string, string>();

  /** Remembers the reasoning of a member's reply as its family's. */
  remember(message: Message | undefined, family: string): void {
    if (message?.role !== "assistant" || typeof message.content === "string" || !Array.isArray(message.content)) return;
    for (const part of message.content) {
      if (!carriesOpaqueData(part)) continue;
      for (const data of opaqueData(part)) {
        this.#origins.delete(data);
        this.#origins.set(data, family);
        if (this.#origins.size > remembered) this.#origins.delete(this.#origins.keys().next().value!);
      }
    }
  }

  /**
   * `messages` as a member of `family` may be sent them: each reasoning part another family issued
   * left out, and each tool call's signature another family issued (the visible text and the tool
   * calls kept), in new messages where something was left out
   * — the caller's are never changed. `dropped` counts the parts left out.
   */
  portable(messages: readonly Message[], family: string): { messages: readonly Message[]; dropped: number } {
    if (this.#origins.size === 0 || !Array.isArray(messages)) return { messages, dropped: 0 };
    let dropped = 0;
    let changed: Message[] | undefined;
    messages.forEach((message, index) => {
      if (message?.role !== "assistant" || !Array.isArray(message.content)) return;
      let changedHere = false;
      const kept: AssistantContentPart[] = [];
      for (const part of message.content) {
        if (!carriesOpaqueData(part) || !this.#isForeign(part, family)) kept.push(part);
        else {
          dropped++;
          changedHere = true;
          // A tool call stays (the conversation needs it): only its signature is left out.
          if (part.type === "tool-call") {
            const { signature: _signature, ...call } = part;
            kept.push(call);
          }
        }
      }
      if (!changedHere) return;
      changed ??= [...messages];
      changed[index] = { ...message, content: kept };
    });
    return { messages: changed ?? messages, dropped };
  }

  /** Whether another family than `family` issued what this part carries. */
  #isForeign(part: ReasoningPart | ToolCall, family: string): boolean {
    return opaqueData(part).some((data) => {
      const origin = this.#origins.get(data);
      return origin !== undefined && origin !== family;
    });
  }
}
