import type { ProviderInput, RunContext } from "../input.js";
import type { ProviderOutput } from "../output.js";
import type { ChatModelChunk } from "../stream/chat-model-chunk.js";
import type { ChatModelMiddleware, MiddlewareContext } from "./chat-model-middleware.js";
import type { ProviderRequests } from "./provider-requests.js";

/** Whose requests the middleware runs around. */
interface ModelIds {
  readonly providerId: string;
  readonly modelId: string;
}

/**
 * The provider's requests with `middleware` around them, the first listed outermost. A middleware
 * with no hook for a request adds nothing to it.
 */
export function composeMiddleware(
  provider: ProviderRequests,
  middleware: readonly ChatModelMiddleware[],
  model: ModelIds,
): ProviderRequests {
  let requests = provider;
  for (let index = middleware.length - 1; index >= 0; index--)
    requests = around(middleware[index]!, index, requests, model);
  return requests;
}

function around(
  middleware: ChatModelMiddleware,
  index: number,
  inner: ProviderRequests,
  model: ModelIds,
): ProviderRequests {
  const name = middleware.name ?? `middleware #${index + 1}`;
  const transform = async (input: ProviderInput, context: MiddlewareContext, signal: AbortSignal) =>
    middleware.transformInput
      ? checkedInput(await middleware.transformInput(input, context), `${name}'s transformInput`, signal)
      : input;
  const create: ProviderRequests["create"] =
    !middleware.transformInput && !middleware.wrapCreate
      ? inner.create
      : async (input, run) => {
          const context = middlewareContext(run, model);
          const sent = await transform(input, context, run.signal);
          if (!middleware.wrapCreate) return inner.create(sent, run);
          const output: unknown = await middleware.wrapCreate({
            input: sent,
            context,
            next: (next = sent) => inner.create(checkedInput(next, `${name}'s next()`, run.signal), run),
          });
          if (output === null || typeof output !== "object") {
            throw new TypeError(
              `${name}'s wrapCreate resolved to ${String(output)}, not a reply: return await next(), or an answer such as { text: "…" }.`,
            );
          }
          return output as ProviderOutput;
        };
  const stream: ProviderRequests["stream"] =
    !middleware.transformInput && !middleware.wrapStream
      ? inner.stream
      : async function* (input, run) {
          const context = middlewareContext(run, model);
          const sent = await transform(input, context, run.signal);
          if (!middleware.wrapStream) return yield* inner.stream(sent, run);
          const chunks: unknown = middleware.wrapStream({
            input: sent,
            context,
            next: (next = sent) => inner.stream(checkedInput(next, `${name}'s next()`, run.signal), run),
          });
          if (typeof (chunks as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] !== "function") {
            throw new TypeError(
              `${name}'s wrapStream returned ${String(chunks)}, not an async iterable of chunks: write it as an async generator (async function*) that yields from next().`,
            );
          }
          for await (const chunk of chunks as AsyncIterable<unknown>) yield checkedChunk(chunk, name);
        };
  return { create, stream };
}

/** What a middleware sees of a request (the call's number, input and rung, when the request belongs to a call). */
function middlewareContext(run: RunContext, model: ModelIds): MiddlewareContext {
  return {
    providerId: model.providerId,
    modelId: model.modelId,
    callId: run.call?.callId ?? 0,
    attempt: run.attempt,
    rung: run.rung ?? "native",
    signal: run.signal,
    callInput: run.call?.input ?? { messages: [] },
  };
}

/** A provider input a middleware handed on, checked: what an adapter reads must be there (the call's signal kept). */
function checkedInput(input: unknown, where: string, signal: AbortSignal): ProviderInput {
  if (input === null || typeof input !== "object" || !Array.isArray((input as ProviderInput).messages)) {
    throw new TypeError(
      `${where} was given ${input === null || typeof input !== "object" ? String(input) : "an object without a messages array"}, not a provider input: pass the input it was given, or a copy of it ({ ...input, messages }).`,
    );
  }
  const checked = input as ProviderInput;
  return checked.signal instanceof AbortSignal ? checked : { ...checked, signal };
}

const chunkTypes = new Set([
  "text-delta",
  "reasoning-delta",
  "tool-call-delta",
  "tool-call",
  "usage",
  "finish",
  "reset",
]);

/** A chunk a middleware yielded, checked: one the pipeline knows (a typo fails here, naming the middleware). */
function checkedChunk(chunk: unknown, name: string): ChatModelChunk {
  const type = (chunk as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !chunkTypes.has(type) || type === "reset") {
    throw new TypeError(
      `${name}'s wrapStream yielded ${typeof type === "string" ? `a "${type}" chunk` : String(chunk)}: yield the chunks of next(), or chunks such as { type: "text-delta", text }.`,
    );
  }
  return chunk as ChatModelChunk;
}
