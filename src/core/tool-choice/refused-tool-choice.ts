import type { ProviderError } from "../errors/provider-error.js";
import type { ProviderInput } from "../input.js";
import type { ToolChoiceMode } from "./tool-choice-mode.js";

/**
 * The tool_choice value a provider's 400 refused, when there is one to learn: the adapter marked
 * the error and this call really sent it (a refusal of a value the request never carried teaches
 * nothing). The value may already be gone from the support set: another call in flight learned it.
 */
export function refusedToolChoice(error: ProviderError, sent: ProviderInput["toolChoice"]): ToolChoiceMode | undefined {
  const rejected = error.rejectedParameter;
  if (rejected?.name !== "tool_choice") return undefined;
  const refused = rejected.value;
  const wasSent = typeof sent === "object" ? refused === "single" : sent === refused;
  return wasSent ? refused : undefined;
}
