import type {
  ChatModelInput,
  InferResponseFormatOutput,
  InferSchemaOutput,
  ResponseFormat,
  StructureInput,
} from "../input.js";
import type { ChatModelParameters } from "../input.js";
import type { ChatModelOutput } from "../output.js";
import type { ModelProfile } from "../profiles/model-profile.js";
import type { SchemaInput } from "../schema/schema-input.js";
import type { ChatModelStream } from "../stream/chat-model-stream.js";
import type { AnyTool, ToolCallOf } from "../tool.js";
import type { ChatModelEmitter } from "../emitter/chat-model-emitter.js";

/**
 * What a chat model is to the code that uses one: `runTools`, `streamTools`, `evaluate`,
 * `instrumentChatModel` and your own. `ChatModel` (every adapter) implements it, and so does a
 * model made of others (`createRouter`, `withFallbacks`), which runs its calls through its members
 * instead of a provider. Type a parameter with it to take either.
 */
export interface ChatModelLike {
  /** Who answers: "openai", "anthropic", … ("router" for a model group). */
  readonly providerId: string;
  readonly modelId: string;
  /** The model's events; a composite forwards its members' events of a call as its own. */
  readonly emitter: ChatModelEmitter;
  /** The model's limits and prices, where keelson knows them (a `ChatModel`'s; a router has none). */
  readonly profile?: ModelProfile | undefined;
  /** Default parameters of every call, when the model has any. */
  readonly parameters?: ChatModelParameters | undefined;
  /** One reply (see `ChatModel.create`). */
  create<Tools extends readonly AnyTool[] = readonly AnyTool[], Format extends ResponseFormat = ResponseFormat>(
    input: ChatModelInput<Tools, Format>,
  ): Promise<ChatModelOutput<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>>;
  /** One reply, streamed (see `ChatModel.createStream`). */
  createStream<Tools extends readonly AnyTool[] = readonly AnyTool[], Format extends ResponseFormat = ResponseFormat>(
    input: ChatModelInput<Tools, Format>,
  ): ChatModelStream<ToolCallOf<Tools[number]>, InferResponseFormatOutput<Format>>;
  /** A structured object matching `schema`, parsed and validated. */
  createStructure<S extends SchemaInput>(
    input: StructureInput<S>,
  ): Promise<{ object: InferSchemaOutput<S>; output: ChatModelOutput }>;
}

/** Whether `value` has the shape of a chat model (a `ChatModel` or a composite): a guard for options checks. */
export function isChatModelLike(value: unknown): value is ChatModelLike {
  const model = value as Partial<ChatModelLike> | null;
  return (
    typeof model === "object" &&
    model !== null &&
    typeof model.create === "function" &&
    typeof model.createStream === "function" &&
    typeof model.providerId === "string" &&
    typeof model.modelId === "string"
  );
}
