/**
 * `instrumentChatModel`: OpenTelemetry GenAI spans from a model's events.
 * @module keelson/otel
 */
export { instrumentChatModel, type InstrumentOptions } from "./instrument-chat-model.js";
