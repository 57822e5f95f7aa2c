import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelInput } from "../core/input.js";
import type { ChatModelOutput } from "../core/output.js";

/** One member's turn in a call: its input (the caller's, with the time left of the call's timeout) and how it ended. */
export interface MemberTurn {
  model: ChatModelLike;
  input: ChatModelInput;
  /** Stops passing on the member call's events. */
  stopForwarding: () => void;
  /** Records how the member's call ended (once): answered with `output`, or failed with `error`. */
  settle: (error: unknown, output?: ChatModelOutput) => void;
}
