import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ChatModel, defineTool } from "../../../src/index.js";
import type { ChatModelChunk, ChatModelInput, ProviderOutput } from "../../../src/index.js";

/**
 * An adapter that logs each text delta as it sends it: the stream is pulled, so a delta the caller
 * receives before the next one is sent reached it with no added latency.
 */
class LoggingModel extends ChatModel {
  readonly providerId = "logging";
  readonly log: string[] = [];
  readonly #deltas: string[];

  constructor(deltas: string[]) {
    super(
      "logging",
      {},
      { toolChoiceSupport: ["auto"], supportsStructuredOutput: false, supportsTopLevelUnion: false },
    );
    this.#deltas = deltas;
  }

  protected override _create(): Promise<ProviderOutput> {
    throw new Error("not used");
  }

  protected override async *_createStream(): AsyncIterable<ChatModelChunk> {
    for (const [index, text] of this.#deltas.entries()) {
      this.log.push(`sent ${index}`);
      yield { type: "text-delta", text };
    }
    this.log.push("sent finish");
    yield { type: "finish", finishReason: "stop" };
  }
}

const weather = defineTool({ name: "get_weather", inputSchema: z.object({ city: z.string() }) });
const input: ChatModelInput = { messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weather] };

async function read(model: LoggingModel): Promise<string[]> {
  for await (const chunk of model.createStream(input)) {
    if (chunk.type === "text-delta") model.log.push(`got ${JSON.stringify(chunk.text)}`);
    if (chunk.type === "tool-call")
      model.log.push(`call ${chunk.toolCall.name} ${JSON.stringify(chunk.toolCall.args)}`);
  }
  return model.log;
}

describe("ChatModel.createStream: text that may be a tool call written as text", () => {
  it("should show text that opens no call form as it comes", async () => {
    const log = await read(new LoggingModel(["Paris ", "is ", "sunny."]));
    expect(log).toEqual(["sent 0", 'got "Paris "', "sent 1", 'got "is "', "sent 2", 'got "sunny."', "sent finish"]);
  });

  it("should hold a JSON value that may be a call back only until prose after it shows it is an answer", async () => {
    const log = await read(new LoggingModel(['{"name": ', '"Alice"}', "\n\nThat ", "is all."]));
    expect(log).toEqual([
      "sent 0",
      "sent 1",
      "sent 2",
      `got ${JSON.stringify('{"name": "Alice"}\n\nThat ')}`,
      "sent 3",
      'got "is all."',
      "sent finish",
    ]);
  });

  it("should show a JSON answer as soon as its first key is no call envelope's", async () => {
    const log = await read(new LoggingModel(['{"serv', 'ice": "auth', '-api", ', '"severity": 1}']));
    expect(log).toEqual([
      "sent 0",
      "sent 1",
      `got ${JSON.stringify('{"service": "auth')}`,
      "sent 2",
      `got ${JSON.stringify('-api", ')}`,
      "sent 3",
      `got ${JSON.stringify('"severity": 1}')}`,
      "sent finish",
    ]);
  });

  it("should show a fence of a language no call is written in at its first line", async () => {
    const log = await read(new LoggingModel(["```bash\n", "ls -la\n", "```"]));
    expect(log.slice(0, 2)).toEqual(["sent 0", `got ${JSON.stringify("```bash\n")}`]);
  });

  it("should show a Markdown link as soon as its bracket holds no call to a tool", async () => {
    const log = await read(new LoggingModel(["[Par", "is](https://example.com) ", "is sunny."]));
    expect(log.slice(0, 4)).toEqual([
      "sent 0",
      "sent 1",
      `got ${JSON.stringify("[Paris](https://example.com) ")}`,
      "sent 2",
    ]);
  });

  it("should replace a call written as text by its tool-call chunk, the markup never shown nor in newToken", async () => {
    const model = new LoggingModel([
      "<tool",
      '_call>{"name": "get_',
      'weather", "arguments": {"city": "Paris"}}',
      "</tool_call>",
    ]);
    const tokens: ChatModelChunk[] = [];
    model.emitter.on("newToken", ({ chunk }) => tokens.push(chunk));
    const log = await read(model);
    expect(log).toEqual(["sent 0", "sent 1", "sent 2", "sent 3", "sent finish", 'call get_weather {"city":"Paris"}']);
    expect(tokens).toEqual([]);
  });

  it("should show a leading think block as it comes, then hold the call that follows it", async () => {
    const model = new LoggingModel([
      "<think>Paris",
      ", then the ",
      "tool.</thi",
      'nk>\n{"name": "get_weather", ',
      '"arguments": {"city": "Paris"}}',
    ]);
    const log = await read(model);
    expect(log).toEqual([
      "sent 0",
      `got ${JSON.stringify("<think>Paris")}`,
      "sent 1",
      'got ", then the "',
      "sent 2",
      'got "tool.</thi"',
      "sent 3",
      'got "nk>"',
      "sent 4",
      "sent finish",
      'call get_weather {"city":"Paris"}',
    ]);
  });

  it("should release held text that was no call at the stream's end, before the finish", async () => {
    const model = new LoggingModel(['{"name": "get_weather", ', '"arguments": {"town": "Paris"}}']);
    const chunks: ChatModelChunk["type"][] = [];
    const stream = model.createStream(input);
    for await (const chunk of stream) chunks.push(chunk.type);
    expect(chunks).toEqual(["text-delta", "finish"]);
    expect((await stream.final()).text).toBe('{"name": "get_weather", "arguments": {"town": "Paris"}}');
  });
});
