// One user message with its files given as data: URLs (a FilePart's `data` is "base64 data or a
// URL"), sent through each adapter's real SDK to a loopback server: every provider must receive
// the same bytes. Bedrock and Ollama read the data: URL; the OpenAI request must not wrap it again.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/index.js";
import { OpenAIChatModel } from "../../../src/adapters/openai/index.js";
import { AzureOpenAIChatModel } from "../../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../../src/adapters/ollama/index.js";
import { useLoopbackServer } from "../../support/loopback-server.js";
import { replyFor, replyOf, useBedrockLoopback } from "../../support/bedrock-loopback.js";
import { openAITextReply } from "../../support/openai-wire.js";
import { ollamaTextReply } from "../ollama/ollama-harness.js";
import { call, callModes } from "../../support/run-modes.js";

const pdf = "JVBERi0xLjQK";
const wav = "UklGRiQAAABXQVZF";
const png = "iVBORw0KGgo=";
const withFiles = (parts: { data: string; mediaType: string; filename?: string }[]): Message[] => [
  {
    role: "user",
    content: [{ type: "text", text: "Read these." }, ...parts.map((part) => ({ type: "file" as const, ...part }))],
  },
];

const server = useLoopbackServer();
const bedrock = useBedrockLoopback();

/** Answers an OpenAI or Ollama request with "ok", as the request's mode asks. */
function answerOk(reply: ReturnType<typeof openAITextReply>): void {
  server.handle((request, response) => {
    const answer = request.json.stream ? reply.stream! : reply.create!;
    response.writeHead(answer.status ?? 200, answer.headers);
    for (const piece of [answer.body].flat()) response.write(piece);
    response.end();
  });
}

describe.each(callModes)("a file part given as a data: URL, through %s", (mode) => {
  const openAIModels = {
    openai: () => new OpenAIChatModel("gpt-4o", { baseURL: `${server.url}/v1`, apiKey: "k", retry: { maxRetries: 0 } }),
    "azure-openai": () =>
      new AzureOpenAIChatModel("gpt-4o", { endpoint: server.url, apiKey: "k", retry: { maxRetries: 0 } }),
  };

  it.each(Object.keys(openAIModels) as (keyof typeof openAIModels)[])(
    "should send %s the file, the audio and the image as the same data: URL or base64, never wrapped twice",
    async (name) => {
      answerOk(openAITextReply("ok"));
      const messages = withFiles([
        { data: `data:application/pdf;base64,${pdf}`, mediaType: "application/pdf", filename: "report.pdf" },
        { data: `data:audio/wav;base64,${wav}`, mediaType: "audio/wav" },
        { data: `data:image/png;base64,${png}`, mediaType: "image/png" },
      ]);
      await call(openAIModels[name](), { messages }, mode);
      expect(server.requests[0]!.json.messages[0].content.slice(1)).toEqual([
        { type: "file", file: { file_data: `data:application/pdf;base64,${pdf}`, filename: "report.pdf" } },
        { type: "input_audio", input_audio: { data: wav, format: "wav" } },
        { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
      ]);
    },
  );

  it("should send Bedrock and Ollama the same bytes from the same message", async () => {
    bedrock.server.handle(
      replyFor(
        replyOf({
          output: { message: { role: "assistant", content: [{ text: "ok" }] } },
          stopReason: "end_turn",
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        }),
        mode,
      ),
    );
    await call(
      bedrock.model("us.anthropic.claude-sonnet-4-5-20250929-v1:0", { retry: { maxRetries: 0 } }),
      {
        messages: withFiles([
          { data: `data:application/pdf;base64,${pdf}`, mediaType: "application/pdf", filename: "report.pdf" },
        ]),
      },
      mode,
    );
    expect(bedrock.server.requests[0]!.json.messages[0].content[1].document.source.bytes).toBe(pdf);

    answerOk(ollamaTextReply("ok"));
    await call(
      new OllamaChatModel("llava", { host: server.url, retry: { maxRetries: 0 } }),
      { messages: withFiles([{ data: `data:image/png;base64,${png}`, mediaType: "image/png" }]) },
      mode,
    );
    expect(server.requests[0]!.json.messages[0].images).toEqual([png]);
  });
});
