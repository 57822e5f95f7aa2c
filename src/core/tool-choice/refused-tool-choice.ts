import type { ProviderError } from "../errors/provider-error.js";
import type { ProviderInput } from "../input.js";
import type { ToolChoiceMode } from "./tool-choice-mode.js";

/**
 * The tool_choice value a provider's 400 refused, when there is one to learn: the adapter marked
 * the error and this call really sent it (a refusal of a value the request never carried teaches
 * nothing). The value may already be gone from the support set: another call in flight learned it.
 */
export function refusedToolChoice(error: ProviderError, sent: ProviderInput["toolChoice"]): ToolChoiceMode | undefined {
  const refused = error.rejectedParameter?.value;
  if (!refused) return undefined;
  const wasSent = typeof sent === "object" ? refused === "single" : sent === refused;
  return wasSent ? refused : undefined;
}

/** What the `warning` event says when the ladder learned from a refusal. */
export function learnedToolChoiceMessage(
  where: string,
  refused: ToolChoiceMode,
  error: ProviderError,
  support: ReadonlySet<ToolChoiceMode>,
): string {
  return (
    `${where} refused tool_choice '${refused}' (${error.message}). ` +
    "keelson removed it from this model's toolChoiceSupport and retried on the next rung. " +
    `To skip the refused request, construct the model with toolChoiceSupport: new Set(${JSON.stringify([...support])}).`
  );
}
