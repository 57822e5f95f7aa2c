import type { ChatModel, ChatModelChunk, ChatModelInput, ChatModelOutput } from "../../src/index.js";

/** The two ways to call a model; core behaviours run through both. */
export const modes = ["create", "createStream"] as const;
export type Mode = (typeof modes)[number];

export interface ModeResult {
  output: ChatModelOutput;
  /** The chunks the caller saw (empty for `create`). */
  chunks: ChatModelChunk[];
}

/** Calls `model` through `create`, or through `createStream` read to the end. */
export async function runMode(model: ChatModel, input: ChatModelInput, mode: Mode): Promise<ModeResult> {
  if (mode === "create") return { output: await model.create(input), chunks: [] };
  const stream = model.createStream(input);
  const chunks: ChatModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { output: await stream.final(), chunks };
}
