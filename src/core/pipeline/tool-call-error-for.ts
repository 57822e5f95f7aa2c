import { ToolCallError } from "../errors/tool-call-error.js";
import type { OutputRules } from "./output-rules.js";

/** A ToolCallError that names the model, with the feedback the re-ask sends to it. */
export function toolCallError(
  rules: OutputRules,
  kind: ToolCallError["kind"],
  feedback: string,
  text: string,
  toolName?: string,
): ToolCallError {
  return new ToolCallError(`${rules.providerId} ${rules.modelId}: ${feedback}`, {
    kind,
    feedback,
    text,
    toolName,
    providerId: rules.providerId,
    modelId: rules.modelId,
  });
}
