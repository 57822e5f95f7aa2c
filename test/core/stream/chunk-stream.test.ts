import { describe, expect, it } from "vitest";
import { ChatModel, type ProviderOutput } from "../../../src/index.js";
import type { ChatModelChunk } from "../../../src/core/stream/chat-model-chunk.js";
import { chunkStream, type OpenedParts } from "../../../src/core/stream/chunk-stream.js";

/** Parts as a provider SDK would yield them, recording how the stream was left. */
function provider(parts: string[], failAt?: number) {
  const log: string[] = [];
  async function* generate() {
    try {
      for (const [index, part] of parts.entries()) {
        if (index === failAt) throw new Error("connection reset");
        yield part;
      }
    } finally {
      log.push("parts returned");
    }
  }
  const open = async (
    reader: Pick<OpenedParts<string>, "toChunks" | "end"> = { toChunks },
  ): Promise<OpenedParts<string>> => {
    log.push("opened");
    return {
      parts: generate(),
      ...reader,
      close: (finished: boolean) => log.push(finished ? "closed: finished" : "closed: left early"),
      mapError,
    };
  };
  return { open, log };
}

/** "a" → one text chunk, "ab" → two, "" → none. */
const toChunks = (part: string): ChatModelChunk[] => [...part].map((text) => ({ type: "text-delta", text }));
const mapError = (error: unknown) => new Error(`mapped: ${(error as Error).message}`);

async function readAll(stream: AsyncIterable<ChatModelChunk>): Promise<string> {
  let text = "";
  for await (const chunk of stream) if (chunk.type === "text-delta") text += chunk.text;
  return text;
}

describe("chunkStream", () => {
  it("should open on the first read, hand out every chunk of every part in order, and close as finished", async () => {
    const { open, log } = provider(["a", "", "bcd", "e"]);
    const stream = chunkStream(() => open());
    expect(log).toEqual([]);
    expect(await readAll(stream)).toBe("abcde");
    expect(log).toEqual(["opened", "parts returned", "closed: finished"]);
  });

  it("should map an error while reading, after the chunks before it, and close as left early", async () => {
    const { open, log } = provider(["ab", "c", "d"], 2);
    const chunks: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of chunkStream(() => open())) if (chunk.type === "text-delta") chunks.push(chunk.text);
      })(),
    ).rejects.toThrow("mapped: connection reset");
    expect(chunks).toEqual(["a", "b", "c"]);
    expect(log.at(-1)).toBe("closed: left early");
  });

  it("should map an error thrown by toChunks the same way", async () => {
    const { open, log } = provider(["a", "boom"]);
    const failing = (part: string) => {
      if (part === "boom") throw new TypeError("unreadable part");
      return toChunks(part);
    };
    await expect(readAll(chunkStream(() => open({ toChunks: failing })))).rejects.toThrow("mapped: unreadable part");
    expect(log).toContain("closed: left early");
  });

  it("should pass an error from open through unmapped (the adapter maps it) and close nothing", async () => {
    const refused = new Error("401 from the provider");
    const stream = chunkStream(() => Promise.reject(refused));
    await expect(readAll(stream)).rejects.toBe(refused);
  });

  it("should hand out the end's chunks after the last part, and map an end that throws", async () => {
    const finish: ChatModelChunk = { type: "finish", finishReason: "stop" };
    const { open } = provider(["ab"]);
    const chunks: ChatModelChunk[] = [];
    for await (const chunk of chunkStream(() =>
      open({ toChunks, end: () => [{ type: "text-delta", text: "!" }, finish] }),
    ))
      chunks.push(chunk);
    expect(chunks.map((chunk) => (chunk.type === "text-delta" ? chunk.text : chunk.type))).toEqual([
      "a",
      "b",
      "!",
      "finish",
    ]);

    const cut = provider(["ab"]);
    const ended = () => {
      throw new Error("ended before its final chunk");
    };
    await expect(readAll(chunkStream(() => cut.open({ toChunks, end: ended })))).rejects.toThrow(
      "mapped: ended before its final chunk",
    );
    expect(cut.log.at(-1)).toBe("closed: left early");
  });

  it("should map parts that cannot be iterated, close them as left early, and end there", async () => {
    const log: string[] = [];
    const unreadable = {
      [Symbol.asyncIterator]: (): AsyncIterator<string> => {
        throw new TypeError("not a stream");
      },
    };
    const stream = chunkStream(async () => ({
      parts: unreadable,
      toChunks,
      close: (finished: boolean) => log.push(`closed: ${finished}`),
      mapError,
    }));
    const iterator = stream[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow("mapped: not a stream");
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(log).toEqual(["closed: false"]);
  });

  it("should let go of a stream the consumer left while it was opening, once it has opened", async () => {
    const { open, log } = provider(["abc"]);
    let opened!: () => void;
    const gate = new Promise<void>((resolve) => (opened = resolve));
    const iterator = chunkStream(async () => {
      await gate;
      return open();
    })[Symbol.asyncIterator]();
    const first = iterator.next();
    const leaving = iterator.return!();
    opened();
    expect(await first).toEqual({ done: false, value: { type: "text-delta", text: "a" } });
    expect(await leaving).toEqual({ done: true, value: undefined });
    expect(log).toEqual(["opened", "parts returned", "closed: left early"]);
  });

  it("should return the provider's parts and close as left early when the consumer stops", async () => {
    const { open, log } = provider(["abc", "d", "e"]);
    for await (const chunk of chunkStream(() => open())) {
      if (chunk.type === "text-delta" && chunk.text === "b") break;
    }
    expect(log).toEqual(["opened", "parts returned", "closed: left early"]);
  });
});

/** An adapter whose `_createStream` is a chunkStream, as every keelson adapter's is. */
class PartsModel extends ChatModel {
  readonly providerId = "parts";
  constructor(readonly opened: () => Promise<OpenedParts<string>>) {
    super("parts", {}, { toolChoiceSupport: [], supportsStructuredOutput: false, supportsTopLevelUnion: false });
  }
  protected override _create(): Promise<ProviderOutput> {
    throw new Error("not used");
  }
  protected override _createStream(): AsyncIterable<ChatModelChunk> {
    return chunkStream(this.opened);
  }
}

const hi = { messages: [{ role: "user" as const, content: "hi" }] };

// The call reads a chunkStream with its handlers handed down (no promise step per level): the same behaviour.
describe("chunkStream read by a ChatModel's stream", () => {
  it("should hand out every chunk in order, end with the whole reply, and close as finished", async () => {
    const { open, log } = provider(["a", "", "bcd", "e"]);
    const stream = new PartsModel(() => open()).createStream(hi);
    expect(await readAll(stream)).toBe("abcde");
    expect((await stream.final()).text).toBe("abcde");
    expect(log).toEqual(["opened", "parts returned", "closed: finished"]);
  });

  it("should answer overlapping reads in order", async () => {
    const { open } = provider(["ab", "c", "d"]);
    const iterator = new PartsModel(() => open()).createStream(hi)[Symbol.asyncIterator]();
    const reads = await Promise.all([iterator.next(), iterator.next(), iterator.next(), iterator.next()]);
    expect(reads.map((read) => (read.done ? "end" : read.value.type === "text-delta" ? read.value.text : ""))).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
  });

  it.each([
    ["a failed read", provider(["ab", "c", "d"], 2), toChunks],
    [
      "a part toChunks cannot take",
      provider(["ab", "c", "!", "d"]),
      (part: string) => {
        if (part === "!") throw new Error("unreadable part");
        return toChunks(part);
      },
    ],
  ])(
    "should fail with the mapped error after the chunks before %s, and close as left early",
    async (_, { open, log }, map) => {
      const stream = new PartsModel(() => open({ toChunks: map })).createStream(hi);
      const chunks: string[] = [];
      await expect(
        (async () => {
          for await (const chunk of stream) if (chunk.type === "text-delta") chunks.push(chunk.text);
        })(),
      ).rejects.toThrow(/^mapped: /);
      await expect(stream.final()).rejects.toThrow(/^mapped: /);
      expect(chunks).toEqual(["a", "b", "c"]);
      expect(log.at(-1)).toBe("closed: left early");
    },
  );

  it("should return the provider's parts and close as left early when the consumer stops", async () => {
    const { open, log } = provider(["abc", "d", "e"]);
    for await (const chunk of new PartsModel(() => open()).createStream(hi)) {
      if (chunk.type === "text-delta" && chunk.text === "d") break;
    }
    expect(log).toEqual(["opened", "parts returned", "closed: left early"]);
  });
});
