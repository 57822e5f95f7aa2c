export { instrumentChatModel, type InstrumentOptions } from "./instrument-chat-model.js";
