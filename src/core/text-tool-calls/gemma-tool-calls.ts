import type { ProviderToolCall } from "../output.js";
import { parseGemmaCalls } from "./python-literal.js";
import { taggedBlocks } from "./tagged-blocks.js";

/** Gemma 4's tool-call opener, which a server that does not parse the call leaves in the text. */
export const gemmaCallOpen = "<|tool_call>";
export const gemmaCallClose = "<tool_call|>";

/**
 * Calls in Gemma 4's native form, `<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>`,
 * one block per call (blocks follow one another with nothing between). A block that is not that
 * form is skipped, never guessed at; with `complete` (a reply cut off at the token limit), a block
 * left open is not read. A tool response or end of turn the model went on to write ends the block.
 */
export function gemmaToolCalls(text: string, limit: number, complete: boolean): ProviderToolCall[] {
  return taggedBlocks(text, gemmaCallOpen, gemmaCallClose, limit)
    .filter((block) => block.closed || !complete)
    .flatMap((block) => parseGemmaCalls(block.body.split(/<\|tool_response>|<turn\|>/, 1)[0]!) ?? []);
}
