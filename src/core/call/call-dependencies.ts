import type { EventSink } from "../emitter/chat-model-emitter.js";
import type { CapabilityScope } from "../capabilities/learned-capabilities.js";
import type { ChatModelInput } from "../input.js";
import type { ModelSettings } from "../model-settings.js";
import type { ProviderRequests } from "../middleware/provider-requests.js";
import type { ResolvedRetryOptions } from "../retry/retry-options.js";
import type { PreparedCall } from "./prepared-call.js";

/**
 * What a model hands its calls, once: its settings (read afresh at each call), its event sink, its
 * repair budget, the prepare step, and its provider requests with its middleware composed around them.
 * Nothing in it calls back into the model.
 */
export interface CallDependencies {
  /** The model's settings, read afresh at each call (what was learned from refusals already applied). */
  readonly settings: ModelSettings;
  /** Where what this model's provider refused is kept, for the whole process (provider, endpoint, model). */
  readonly scope: CapabilityScope;
  /** Where its requests go (part of a cache key). */
  readonly endpoint: string;
  /** The model's events, read at each use: the emitter once made (a listener added mid-call counts from then on). */
  readonly emitter: EventSink;
  readonly retry: ResolvedRetryOptions;
  /** Re-asks allowed for an unusable reply, read at each repair. */
  readonly maxRepairAttempts: number;
  /** Prepares a call (again, after learning): the model's settings as they are now. */
  prepare(input: ChatModelInput, callId: number): PreparedCall;
  /** The adapter's requests with the model's middleware (and rate limit) around them: where a call goes down. */
  readonly provider: ProviderRequests;
}
