import type { ChatModel, ChatModelChunk, ChatModelInput, ChatModelOutput } from "../../src/index.js";

/** The two ways a call can be made; every core behaviour runs through both. */
export type CallMode = "create" | "createStream";
export const callModes: readonly CallMode[] = ["create", "createStream"];

export interface ModeResult {
  output: ChatModelOutput;
  /** The chunks the caller saw (empty for `create`). */
  chunks: ChatModelChunk[];
}

/** Runs one call through `create` or through `createStream` (reading every chunk, then `final()`). */
export async function runMode(model: ChatModel, input: ChatModelInput, mode: CallMode): Promise<ModeResult> {
  if (mode === "create") return { output: await model.create(input), chunks: [] };
  const stream = model.createStream(input);
  const chunks: ChatModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { output: await stream.final(), chunks };
}
