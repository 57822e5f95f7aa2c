import { maxRepairLength } from "../tool-calls/parse-json-value.js";
import { callFenceLanguages, envelopeKeys } from "../text-tool-calls/whole-text-tool-calls.js";
import type { ChatModelChunk } from "./chat-model-chunk.js";

/** The openers of the tagged forms a call is written in (`<think>` opens the block shown before one). */
const tagOpeners = ["<tool_call>", "<function=", "<|tool_call>", "<|python_tag|>", "<|python_start|>", "[TOOL_CALLS]"];
const thinkOpen = "<think>";
const thinkClose = "</think>";
/** A key longer than any envelope key is no envelope key: no more of it is kept. */
const maxKeyLength = 16;
/** Past this many characters a lead that is still undecided is text. */
const maxUndecided = 4096;

type Lead = "undecided" | "text" | "think" | "bracket" | "tag";

/**
 * A streamed reply's text while it may be tool calls written as text (see `wholeTextToolCalls`):
 * text whose first non-blank characters open a recognised form is held back, and released as soon
 * as what follows shows it is no call (prose after a JSON value, a fence of another language, a
 * name that is no tool's); else at the stream's end, when the reply is settled: dropped when it was
 * read as calls (their `tool-call` chunks take its place), else released. Text that opens no such
 * form goes out as it comes; a leading `<think>…</think>` block too. Linear in the text it reads.
 */
export class TextCallHoldBack {
  readonly #isToolName: (name: string) => boolean;
  #state: "lead" | "think" | "held" | "shown" = "lead";
  /** Text not shown yet. */
  #held = "";
  /** The think block's last characters, where its close tag may be split across deltas. */
  #thinkTail = "";
  /** Where the bracket scan of held text is, and its state: depth, the open string's quote, an escape. */
  #scanAt = -1;
  #depth = 0;
  #quote = "";
  #escaped = false;
  /** A top-level value closed (after it only another value, a fence close or a special token may come). */
  #closed = false;
  #fenceClosed = false;
  /** The first key of a JSON object the form opens with (`{` or `[{`): watched, read, then decided. */
  #firstKey: "pending" | "await" | "reading" | "done" = "pending";
  #key = "";
  /** Non-blank characters scanned (outside strings). */
  #nonBlank = 0;

  constructor(isToolName: (name: string) => boolean) {
    this.#isToolName = isToolName;
  }

  /** The chunk to show for a text delta: itself, the part of it that may be shown, or none while held. */
  shown(chunk: Extract<ChatModelChunk, { type: "text-delta" }>): ChatModelChunk | undefined {
    if (this.#state === "shown") return chunk;
    const text = this.#take(chunk.text);
    return text === "" ? undefined : text === chunk.text ? chunk : { type: "text-delta", text };
  }

  /** The text held back, handed out once (the reply was no call, or is dropped when it was). */
  release(): string {
    const held = this.#held;
    this.#held = "";
    this.#state = "shown";
    return held;
  }

  #take(text: string): string {
    switch (this.#state) {
      case "shown":
        return text;
      case "think":
        return this.#inThink(text);
      case "held":
        this.#held += text;
        return this.#heldIsText() ? this.release() : "";
      case "lead":
        return this.#lead(text);
    }
  }

  #lead(text: string): string {
    this.#held += text;
    const start = this.#held.search(/\S/);
    const lead = start === -1 ? "undecided" : this.#opens(this.#held.slice(start), false);
    // A lead stays undecided only while it is a few characters (an opener's prefix, a fence's language).
    if (lead === "undecided") return this.#held.length > maxUndecided ? this.release() : "";
    if (lead === "text") return this.release();
    if (lead === "think") {
      const shown = this.#held;
      this.#held = "";
      this.#state = "think";
      return this.#inThink(shown, true);
    }
    this.#state = "held";
    if (lead === "bracket") this.#scanAt = this.#bodyStart(start);
    return this.#heldIsText() ? this.release() : "";
  }

  /** A think block's text, shown; what follows its close is a new lead. */
  #inThink(text: string, opening = false): string {
    const seen = this.#thinkTail + text;
    const close = seen.indexOf(thinkClose, opening ? thinkOpen.length : 0);
    if (close === -1) {
      this.#thinkTail = seen.slice(-thinkClose.length);
      return text;
    }
    const end = close + thinkClose.length - this.#thinkTail.length;
    this.#thinkTail = "";
    this.#state = "lead";
    const rest = text.slice(end);
    return text.slice(0, end) + (rest === "" ? "" : this.#lead(rest));
  }

  /** What the text (from its first non-blank character) opens; in a fence, a bare call counts. */
  #opens(text: string, inFence: boolean): Lead {
    if (!inFence && text.startsWith(thinkOpen)) return "think";
    for (const opener of tagOpeners) if (text.startsWith(opener)) return "tag";
    if (tagOpeners.some((opener) => opener.startsWith(text)) || (!inFence && thinkOpen.startsWith(text)))
      return "undecided";
    if (text[0] === "{") return "bracket";
    if (text[0] === "[") return this.#afterBracket(text.slice(1).trimStart());
    if (!inFence && text.startsWith("```")) return this.#fence(text);
    if (!inFence && "```".startsWith(text)) return "undecided";
    return inFence ? this.#call(text, "tag") : "text";
  }

  /** After `[`: a JSON list (`{` or `[`), or a Python-style call to a tool. */
  #afterBracket(text: string): Lead {
    if (text === "") return "undecided";
    if (text[0] === "{" || text[0] === "[") return "bracket";
    return this.#call(text, "bracket");
  }

  /** `name(` where `name` is a tool's (or `name.call(`): `form`; undecided until the name ends. */
  #call(text: string, form: Lead): Lead {
    const name = /^[A-Za-z_][\w.-]*/.exec(text)?.[0];
    if (name === undefined) return text.trim() === "" ? "undecided" : "text";
    const after = text.slice(name.length).trimStart();
    if (after === "") return "undecided";
    const tool = name.endsWith(".call") ? name.slice(0, -".call".length) : name;
    return after[0] === "(" && this.#isToolName(tool) ? form : "text";
  }

  /** A fence: of a language calls are written in, with a body that opens a form. */
  #fence(text: string): Lead {
    const newline = text.indexOf("\n");
    if (newline === -1) return /^```[\w-]*[ \t]*$/.test(text) ? "undecided" : "text";
    if (!callFenceLanguages.has(text.slice(3, newline).trim().toLowerCase())) return "text";
    const body = text.slice(newline + 1).trimStart();
    if (body === "") return "undecided";
    const lead = this.#opens(body, true);
    return lead === "tag" || lead === "bracket" || lead === "undecided" ? lead : "text";
  }

  /** Where the bracket scan starts: the first `{` or `[` of the form (inside its fence). */
  #bodyStart(start: number): number {
    const held = this.#held;
    const fenced = held.startsWith("```", start);
    const from = fenced ? held.indexOf("\n", start) + 1 : start;
    const bracket = held.slice(from).search(/[[{]/);
    return bracket === -1 ? -1 : from + bracket;
  }

  /**
   * Whether held text has shown it is no call: past the size a reply is read at, or, in a bracketed
   * form, anything but another value, a fence's close or a special token after a top-level value.
   */
  #heldIsText(): boolean {
    const held = this.#held;
    if (held.length > maxRepairLength) return true;
    if (this.#scanAt === -1) return false;
    for (let at = this.#scanAt; at < held.length; at++) {
      const char = held[at]!;
      if (this.#quote !== "") {
        if (this.#escaped) this.#escaped = false;
        else if (char === "\\") this.#escaped = true;
        else if (char === this.#quote) {
          this.#quote = "";
          // The first key of a JSON value that is no envelope's (`{"service": …}`): an answer, not a call.
          if (this.#firstKey === "reading" && !envelopeKeys.has(this.#key)) return true;
          if (this.#firstKey === "reading") this.#firstKey = "done";
        }
        if (this.#firstKey === "reading" && this.#key.length <= maxKeyLength) this.#key += char;
        continue;
      }
      if (/\s/.test(char)) continue;
      if (this.#firstKey === "await") this.#firstKey = char === '"' || char === "'" ? "reading" : "done";
      if (this.#firstKey === "pending" && (this.#nonBlank > 1 || char !== "[")) {
        // A top-level object, or one first in a top-level list: its first key is watched.
        this.#firstKey = char === "{" ? "await" : "done";
      }
      this.#nonBlank++;
      if (this.#fenceClosed) {
        if (char === "`") continue;
        return true;
      }
      if (this.#closed && this.#depth === 0) {
        if (char === "`") {
          this.#fenceClosed = true;
          continue;
        }
        if (char !== "{" && char !== "[" && char !== "<") return true;
        this.#closed = false;
      }
      this.#bracket(char);
    }
    this.#scanAt = held.length;
    return false;
  }

  #bracket(char: string): void {
    if (char === '"' || char === "'") this.#quote = char;
    else if (char === "{" || char === "[") this.#depth++;
    else if ((char === "}" || char === "]") && this.#depth > 0) {
      this.#depth--;
      if (this.#depth === 0) this.#closed = true;
    }
  }
}
