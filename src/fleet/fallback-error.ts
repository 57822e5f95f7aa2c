import { ChatModelError } from "../core/errors/chat-model-error.js";
import type { ModelRef } from "../core/output.js";

const marker = "keelson.error.FallbackError";
const symbol = Symbol.for(marker);

/** One member's failure within a call of a model group. */
export interface MemberFailure {
  /** The member that failed. */
  model: ModelRef;
  /** Its error, after its own retries. */
  error: Error;
}

/**
 * Every member of a model group (`createRouter`, `withFallbacks`) failed the call, each with an
 * error another member could have answered (rate limit, server, network, timeout). `errors` holds
 * each member's error in the order they were tried, `failures` pairs each with its member, and
 * `cause` is the last one; the message names every member and what it failed with.
 */
export class FallbackError extends ChatModelError {
  private readonly [symbol] = true;
  /** Each member's error, in the order the members were tried. */
  readonly errors: readonly Error[];
  /** Each member with its error, in the order they were tried. */
  readonly failures: readonly MemberFailure[];

  constructor(failures: readonly MemberFailure[], options: { providerId?: string; modelId?: string } = {}) {
    const listed = failures.map(({ model, error }, index) => `${index + 1}. ${describe(model)}: ${error.message}`);
    super(
      `Every model of the group failed (${failures.length} tried): ${listed.join(" ")} ` +
        "Each failure is one another provider could answer: wait for their rest to end, add a member, or raise their retries.",
      { ...options, cause: failures.at(-1)?.error },
    );
    this.name = "FallbackError";
    this.failures = failures;
    this.errors = failures.map(({ error }) => error);
  }

  static override isInstance(error: unknown): error is FallbackError {
    return ChatModelError.hasMarker(error, marker);
  }
}

function describe(model: ModelRef): string {
  return `${model.providerId} ${model.modelId}`;
}
