export { ChatModelError, type ChatModelErrorOptions } from "./chat-model-error.js";
export {
  ProviderError,
  type ProviderErrorOptions,
  type ProviderErrorReason,
  type RejectedParameter,
} from "./provider-error.js";
export { EmptyResponseError } from "./empty-response-error.js";
export { ToolCallError, type ToolCallErrorKind, type ToolCallErrorOptions } from "./tool-call-error.js";
export { StructuredOutputError, type StructuredOutputErrorOptions } from "./structured-output-error.js";
export { UnsupportedFeatureError, type UnsupportedFeatureErrorOptions } from "./unsupported-feature-error.js";
export { MissingDependencyError, type MissingDependencyErrorOptions } from "./missing-dependency-error.js";
