import type {
  ChatModelLike as ChatModel,
  ChatModelChunk,
  ChatModelInput,
  ChatModelOutput,
  ProviderError,
} from "../../src/index.js";

/** Every core behaviour runs through both entry points. */
export const callModes = ["create", "createStream"] as const;
export type CallMode = (typeof callModes)[number];

/** Runs one call in the given mode; for streams, also returns the chunks the caller saw. */
export async function runCall(
  model: ChatModel,
  input: ChatModelInput,
  mode: CallMode,
): Promise<{ output: ChatModelOutput; chunks: ChatModelChunk[] }> {
  if (mode === "create") return { output: await model.create(input), chunks: [] };
  const chunks: ChatModelChunk[] = [];
  const stream = model.createStream(input);
  for await (const chunk of stream) chunks.push(chunk);
  return { output: await stream.final(), chunks };
}

/** Like runCall, but a failure is returned, with the chunks a stream delivered before it. */
export async function settleCall(
  model: ChatModel,
  input: ChatModelInput,
  mode: CallMode,
): Promise<{ output?: ChatModelOutput; error?: Error & Partial<ProviderError>; chunks: ChatModelChunk[] }> {
  const chunks: ChatModelChunk[] = [];
  try {
    if (mode === "create") return { output: await model.create(input), chunks };
    const stream = model.createStream(input);
    for await (const chunk of stream) chunks.push(chunk);
    return { output: await stream.final(), chunks };
  } catch (error) {
    return { error: error as Error & Partial<ProviderError>, chunks };
  }
}

export async function call(model: ChatModel, input: ChatModelInput, mode: CallMode): Promise<ChatModelOutput> {
  return (await runCall(model, input, mode)).output;
}

export const user = (content: string) => ({ role: "user" as const, content });
