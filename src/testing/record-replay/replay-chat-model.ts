import { ChatModel } from "../../core/model/chat-model.js";
import type { ChatModelOptions } from "../../core/model/chat-model-options.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import { optionsOf } from "./cassette-settings.js";
import type { Cassette } from "./cassette.js";
import { readCassette } from "./cassette.js";
import { checkCassette } from "./check-cassette.js";
import { replayMiddleware } from "./replay-middleware.js";
import { definedFields } from "../../internal/defined-fields.js";

export interface ReplayChatModelOptions extends ChatModelOptions {
  /** The extra secrets the cassette was recorded with, so inputs holding them match their scrubbed recording. @default [] */
  secrets?: string[] | undefined;
}

/** Replays made so far in this process. */
let replays = 0;

/**
 * Plays a cassette recorded by `RecordingChatModel` back, deterministically and offline. Each
 * provider input must match a recorded one exactly (recorded exchanges are used in order); an input
 * the cassette has not seen fails loudly with a diff against the nearest recorded input. The replay is
 * the innermost middleware of this model (`replayMiddleware`), answering in the provider's place.
 */
export class ReplayChatModel extends ChatModel {
  readonly providerId: string;
  /** Each replay is its own endpoint: it starts from what its recording started from (nothing learned). */
  private readonly ownScope = `replay-${++replays}`;

  /**
   * @param cassette A cassette file path, or a cassette already read.
   * @param options The common options; the profile comes from the cassette. Retry delays default to 0,
   *   so that a recorded retryable error replays without waiting.
   */
  constructor(cassette: string | Cassette, options: ReplayChatModelOptions = {}) {
    const loaded =
      typeof cassette === "string" ? readCassette(cassette) : checkCassette<Cassette>(cassette, "the cassette");
    const { secrets = [], middleware = [], ...rest } = options;
    const retry = {
      initialDelayMs: 0,
      maxDelayMs: 0,
      ...(loaded.settings && rest.maxRetries === undefined ? { maxRetries: loaded.settings.maxRetries } : {}),
    };
    // The recorded model's settings, so the replay sends the same inputs and accepts the same replies.
    // The replay is the innermost middleware: the caller's run around it, as around a provider.
    const replay = replayMiddleware(loaded.interactions, {
      name: typeof cassette === "string" ? cassette : "the cassette",
      secrets,
    });
    super(
      loaded.modelId,
      { ...optionsOf(loaded.settings), retry, ...definedFields(rest), middleware: [...middleware, replay] },
      loaded.profile,
    );
    this.providerId = loaded.providerId;
  }

  protected override get capabilityScope(): string {
    return this.ownScope;
  }

  /** Never reached: the replay middleware, innermost, answers every request in the provider's place. */
  protected override _create(): Promise<ProviderOutput> {
    return Promise.reject(new Error("ReplayChatModel: a request reached past its replay middleware."));
  }

  /** Never reached: the replay middleware, innermost, answers every request in the provider's place. */
  protected override _createStream(): AsyncIterable<ChatModelChunk> {
    throw new Error("ReplayChatModel: a request reached past its replay middleware.");
  }
}
