import { EmptyResponseError } from "../core/errors/empty-response-error.js";
import { MissingDependencyError } from "../core/errors/missing-dependency-error.js";
import { ProviderError } from "../core/errors/provider-error.js";
import { StructuredOutputError } from "../core/errors/structured-output-error.js";
import { ToolCallError } from "../core/errors/tool-call-error.js";
import { UnsupportedFeatureError } from "../core/errors/unsupported-feature-error.js";

/**
 * Why a case failed, as a short kebab-case kind: a ToolCallError's own kind (`invalid-args`,
 * `unknown-tool`, `tool-choice-violation`, `parallel-calls`), `empty-response`, `structured-output`,
 * `unsupported-feature`, `missing-dependency`, `provider:<reason>` (`provider:rate-limit`, …),
 * `timeout`, `expectation` (a valid reply, but not the expected one) or `error` (anything else).
 */
export type FailureKind = string;

export function failureKindOf(error: unknown): FailureKind {
  if (ToolCallError.isInstance(error)) return error.kind;
  if (EmptyResponseError.isInstance(error)) return "empty-response";
  if (StructuredOutputError.isInstance(error)) return "structured-output";
  if (UnsupportedFeatureError.isInstance(error)) return "unsupported-feature";
  if (MissingDependencyError.isInstance(error)) return "missing-dependency";
  if (ProviderError.isInstance(error)) return `provider:${error.reason}`;
  if (error instanceof Error && error.name === "TimeoutError") return "timeout";
  return "error";
}
