import type { ParameterName } from "../parameters/parameter-name.js";
import type { ToolChoiceMode } from "../tool-choice/tool-choice-mode.js";

/** A field keelson adds to a request on its own, which some endpoints refuse. */
export type AddedField = "parallel_tool_calls" | "reasoning";

/** What one endpoint and model refused, learned from its 400s: evidence that wins over a model's options. */
export interface LearnedCapabilities {
  /** tool_choice values the provider refused: gone from `toolChoiceSupport`. */
  readonly toolChoice: Set<ToolChoiceMode>;
  /** The provider refused a JSON-schema response format: `supportsStructuredOutput` is false. */
  structuredOutput: boolean;
  /** Parameters the provider refused: dropped as `unsupportedParameters` are. */
  readonly parameters: Set<ParameterName>;
  /** Fields keelson adds that the provider refused: left out of its requests. */
  readonly fields: Set<AddedField>;
  /** JSON Schema keywords the provider refused in a tool's or response format's schema: left out of the schemas sent. */
  readonly schemaKeywords: Set<string>;
}

/** Where a model's requests go, as the store tells endpoints and models apart. */
export interface CapabilityScope {
  providerId: string;
  /** The model's endpoint (base URL, host, region, deployment), or its own scope (ScriptedChatModel). */
  scope: string;
  modelId: string;
}

/** The process's store: what each provider + endpoint + model refused. */
const store = new Map<string, LearnedCapabilities>();
/** Facts already announced (a `warning` once per process per fact). */
const announced = new Set<string>();

/** Nothing learned: what a scope with no entry reads (never written to). */
const nothingLearned: LearnedCapabilities = Object.freeze({
  toolChoice: new Set<ToolChoiceMode>(),
  structuredOutput: false,
  parameters: new Set<ParameterName>(),
  fields: new Set<AddedField>(),
  schemaKeywords: new Set<string>(),
}) as LearnedCapabilities;

function keyOf(scope: CapabilityScope): string {
  return `${scope.providerId}\u0000${scope.scope}\u0000${scope.modelId}`;
}

/** What was learned for a scope so far (read-only; an empty record when nothing was). */
export function learnedFor(scope: CapabilityScope): LearnedCapabilities {
  return store.get(keyOf(scope)) ?? nothingLearned;
}

/** The scope's entry, made when it has none: the one a refusal is recorded in. */
export function learnedEntry(scope: CapabilityScope): LearnedCapabilities {
  const key = keyOf(scope);
  let entry = store.get(key);
  if (entry === undefined) {
    entry = {
      toolChoice: new Set(),
      structuredOutput: false,
      parameters: new Set(),
      fields: new Set(),
      schemaKeywords: new Set(),
    };
    store.set(key, entry);
  }
  return entry;
}

/**
 * True the first time a fact is announced in this process (`what` names it, e.g. `tool_choice:required`),
 * false after: one `warning` per process per fact, whichever instance meets it.
 */
export function firstAnnouncement(scope: CapabilityScope, what: string): boolean {
  const key = `${keyOf(scope)}\u0000${what}`;
  if (announced.has(key)) return false;
  announced.add(key);
  return true;
}

/**
 * For tests: forgets everything learned and announced in this process. Not part of the package's
 * public entry (a user's process keeps what its providers said).
 */
export function resetLearnedCapabilities(): void {
  store.clear();
  announced.clear();
}
