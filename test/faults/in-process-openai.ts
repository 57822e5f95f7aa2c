import OpenAI from "openai";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import type { OpenAIChatModelOptions } from "../../src/adapters/openai/index.js";
import { openAITextReply } from "../support/openai-wire.js";

/**
 * An OpenAIChatModel on the real `openai` SDK whose `fetch` answers in-process (no socket), for
 * runs of thousands of calls. `answer` turns the request body into the reply text.
 */
export function inProcessOpenAIModel(
  answer: (body: { messages: { content: unknown }[]; stream?: boolean }) => string,
  options: OpenAIChatModelOptions = {},
): OpenAIChatModel {
  const client = new OpenAI({
    apiKey: "sk-in-process",
    baseURL: "http://127.0.0.1:9/v1",
    maxRetries: 0,
    fetch: async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { messages: { content: unknown }[]; stream?: boolean };
      const reply = openAITextReply(answer(body));
      const step = body.stream ? reply.stream! : reply.create!;
      return new Response(step.body as string, { status: 200, headers: step.headers ?? {} });
    },
  });
  return new OpenAIChatModel("gpt-4o-mini", { client, ...options });
}
