import { join } from "node:path";
import { ChatModel } from "../core/model/chat-model.js";
import type { ChatModelLike } from "../core/model/chat-model-like.js";
import type { ChatModelOptions } from "../core/model/chat-model-options.js";
import { toToolChoiceSupport } from "../core/tool-choice/tool-choice-mode.js";
// Public entries only (keelson, keelson/testing), beside core.
import { createChatModel, type ChatModelName } from "../index.js";
import { RecordingChatModel, ReplayChatModel } from "../testing/index.js";
import type { EvalProfile } from "./eval-profile.js";

/** Builds a model with a profile's constructor options: `(options) => new OllamaChatModel("qwen3:8b", { host, ...options })`. */
export type EvalModelFactory = (profileOptions: ChatModelOptions) => ChatModelLike;

/**
 * A model to evaluate: a `provider:model` name (built with `createChatModel(name, profileOptions)`),
 * a factory taking the profile's options, or a `ChatModel` instance (each profile runs on its
 * `clone()` with the profile's capability fields set). A model made of others (`createRouter`)
 * takes a profile's options through a factory that builds its members with them.
 */
export type EvalModel = string | EvalModelFactory | ChatModelLike;

/** Which model a row is about. */
export interface EvalModelId {
  providerId: string;
  modelId: string;
}

/** The capability fields a profile may set on a clone of a model instance. */
const capabilityFields = [
  "toolChoiceSupport",
  "toolCallFallbackViaResponseFormat",
  "supportsToolCalling",
  "supportsStructuredOutput",
  "supportsTopLevelUnion",
  "supportsResponseFormatWithTools",
  "strictResponseFormat",
  "allowParallelToolCalls",
  "ignoreParallelToolCalls",
  "fixInvalidToolCalls",
  "recoverTextToolCallsOnAuto",
  "retryOnEmptyResponse",
  "maxRepairAttempts",
] as const;

/** The model `model` is under `profile`; on a replay, the cassette it recorded instead. */
export function buildProfileModel(
  model: EvalModel,
  profile: EvalProfile,
  cassettes: { record?: string | undefined; replay?: string | undefined },
): ChatModelLike {
  if (cassettes.replay !== undefined) return new ReplayChatModel(cassettePath(cassettes.replay, idOf(model), profile));
  const built = buildSibling(model, profile);
  if (cassettes.record === undefined) return built;
  if (!(built instanceof ChatModel)) {
    throw new TypeError(
      `--record records one provider's traffic: ${built.providerId} ${built.modelId} is made of other models; evaluate its members to record them.`,
    );
  }
  return new RecordingChatModel(built, { cassette: cassettePath(cassettes.record, idOf(built), profile) });
}

/** Where the cassette of one model under one profile lives: `<dir>/<provider>-<model>.<profile>.json`. */
export function cassettePath(dir: string, id: EvalModelId, profile: EvalProfile): string {
  const slug = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "-");
  return join(dir, `${slug(`${id.providerId}-${id.modelId}`)}.${slug(profile.name)}.json`);
}

function buildSibling(model: EvalModel, profile: EvalProfile): ChatModelLike {
  // A name from a case file or the command line: createChatModel checks its provider when it builds.
  if (typeof model === "string") return createChatModel(model as ChatModelName, { ...profile.options });
  if (typeof model === "function") {
    const built = model({ ...profile.options });
    if (typeof built?.create !== "function") throw new TypeError("A model factory must return a ChatModel.");
    return built;
  }
  if (!(model instanceof ChatModel)) {
    if (Object.values(profile.options).every((value) => value === undefined)) return model;
    throw new TypeError(
      `Profile '${profile.name}' sets capability options, which ${model.providerId} ${model.modelId} (a model made of others) cannot take: pass a factory that builds its members with them, (options) => createRouter([new A(..., options), new B(..., options)]).`,
    );
  }
  const sibling = model.clone();
  for (const [key, value] of Object.entries(profile.options)) {
    if (!(capabilityFields as readonly string[]).includes(key)) {
      throw new TypeError(
        `Profile '${profile.name}' sets ${key}, which a model instance cannot take after it was built: pass a factory, (options) => new YourChatModel(..., options).`,
      );
    }
    if (value === undefined) continue;
    Object.assign(sibling, { [key]: key === "toolChoiceSupport" ? toToolChoiceSupport(value as never) : value });
  }
  return sibling;
}

/** The provider and model a model entry names (a name is not built for it: a replay needs no SDK). */
export function idOf(model: EvalModel): EvalModelId {
  if (typeof model === "string") {
    const colon = model.indexOf(":");
    if (colon <= 0 || colon === model.length - 1) {
      throw new TypeError(`"${model}" is not a provider:model name (e.g. "ollama:qwen3:8b").`);
    }
    return { providerId: model.slice(0, colon).trim().toLowerCase(), modelId: model.slice(colon + 1).trim() };
  }
  const built = typeof model === "function" ? model({}) : model;
  return { providerId: built.providerId, modelId: built.modelId };
}
