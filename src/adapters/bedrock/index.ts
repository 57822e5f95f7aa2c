/**
 * `BedrockChatModel`: Amazon Bedrock through the Converse API.
 * @module keelson/bedrock
 */
export { BedrockChatModel } from "./bedrock-chat-model.js";
export type {
  BedrockChatModelOptions,
  BedrockClientLike,
  BedrockCredentials,
  BedrockStaticCredentials,
} from "./bedrock-chat-model-options.js";
export { bedrockModelProfile, baseModelId, type BedrockModelProfile } from "./bedrock-model-profiles.js";
