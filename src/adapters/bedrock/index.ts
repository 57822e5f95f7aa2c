/**
 * `BedrockChatModel`: Amazon Bedrock through the Converse API.
 * @module keelson/bedrock
 */
export { BedrockChatModel, type BedrockChatModelOptions } from "./bedrock-chat-model.js";
export { bedrockModelProfile, baseModelId, type BedrockModelProfile } from "./bedrock-model-profiles.js";
