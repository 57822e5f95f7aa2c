// An eval config as a user writes one: models a name cannot express (here scripted models, each a
// factory taking the profile's options). KEELSON_TEST_DELAY_MS slows every answer down.
import process from "node:process";
import { ScriptedChatModel, textStep, toolCallStep, rawStep } from "../../../src/testing/index.ts";

const delayMs = Number(process.env.KEELSON_TEST_DELAY_MS ?? 0);

/** Calls get_weather for Oslo on every rung; says hello when greeted. */
function answer(input) {
  const question = JSON.stringify(input.messages.find((message) => message.role === "user")?.content ?? "");
  if (question.includes("Hello")) return textStep("Hello!", { delayMs });
  if (input.tools !== undefined) return toolCallStep("get_weather", { city: "Oslo" }, { id: "c1", delayMs });
  return rawStep(JSON.stringify({ name: "get_weather", parameters: { city: "Oslo" } }), { delayMs });
}

export const models = [
  (options) =>
    new ScriptedChatModel(
      Array.from({ length: 500 }, () => answer),
      { ...options, modelId: "weather-bot" },
    ),
];

export const profiles = [
  {
    name: "strict-native",
    options: { toolChoiceSupport: ["auto", "none", "required", "single"], fixInvalidToolCalls: false },
  },
];
