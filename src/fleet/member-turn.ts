import type { ChatModel } from "../core/model/chat-model.js";
import type { ChatModelInput } from "../core/input.js";

/** One member's turn in a call: its input (the caller's, with the time left of the call's timeout) and how it ended. */
export interface MemberTurn {
  model: ChatModel;
  input: ChatModelInput;
  /** Stops passing on the member call's events. */
  stopForwarding: () => void;
}
