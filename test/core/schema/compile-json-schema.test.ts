import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { compileJSONSchema, compilesPerInstance } from "../../../src/core/schema/compile-json-schema.js";
import { ChatModel } from "../../../src/index.js";
import type { ChatModelChunk, ChatModelInput, ProviderInput, ProviderOutput } from "../../../src/index.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

function heapAfterGC(): number {
  for (let round = 0; round < 3; round++) collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** An adapter that answers at once, with the forced tool's call or the structured answer, keeping nothing per call. */
class InstantModel extends ChatModel {
  readonly providerId = "instant";
  constructor() {
    super(
      "instant",
      {},
      {
        toolChoiceSupport: ["auto", "none", "required", "single"],
        supportsStructuredOutput: true,
        supportsTopLevelUnion: true,
      },
    );
  }
  protected override async _create(input: ProviderInput): Promise<ProviderOutput> {
    if (input.tools)
      return { toolCalls: [{ id: "call_1", name: "lookup", args: { id: "INC-1" } }], finishReason: "tool-calls" };
    return { text: '{"id":"INC-1"}', finishReason: "stop" };
  }
  protected override async *_createStream(input: ProviderInput): AsyncIterable<ChatModelChunk> {
    const output = await this._create(input);
    if (output.text) yield { type: "text-delta", text: output.text };
    for (const toolCall of output.toolCalls ?? [])
      yield { type: "tool-call", toolCall: { type: "tool-call", ...toolCall } } as ChatModelChunk;
    yield { type: "finish", finishReason: output.finishReason ?? "stop" };
  }
}

/** A JSON Schema as an MCP server lists it: a new object on every listing. */
const listedSchema = () => ({ type: "object", properties: { id: { type: "string", minLength: 3 } }, required: ["id"] });

const afresh: { name: string; input: () => ChatModelInput }[] = [
  {
    name: "tools",
    input: () => ({
      messages: [{ role: "user", content: "Look up INC-1." }],
      tools: [{ name: "lookup", inputSchema: listedSchema() }],
      toolChoice: "required",
    }),
  },
  {
    name: "a response format",
    input: () => ({ messages: [{ role: "user", content: "INC-1 as JSON." }], responseFormat: listedSchema() }),
  },
];

describe("ChatModel", () => {
  it.each(afresh)(
    "should keep the heap flat over thousands of calls whose $name JSON Schema is made afresh each call",
    async ({ input }) => {
      const model = new InstantModel();
      const run = async (calls: number) => {
        for (let index = 0; index < calls; index++) {
          const output = index % 2 === 0 ? await model.create(input()) : await model.createStream(input()).final();
          expect(output.finishReason).not.toBe("error");
        }
      };
      await run(300);
      const heapAtStart = heapAfterGC();
      await run(800);
      const heapAfterN = heapAfterGC();
      await run(1_600);
      const heapAfter2N = heapAfterGC();
      // Before the fix each call left its compiled validator in the one Ajv instance for good (~4.4 KB
      // a call: +3.5 MB over 800 calls, +7 MB over the next 1,600). Now at most one instance's worth
      // of validators (~1 MB) stays alive; 2 MB leaves room for a noisy collector.
      expect(heapAfterN - heapAtStart).toBeLessThan(2 * 1024 * 1024);
      expect(heapAfter2N - heapAfterN).toBeLessThan(2 * 1024 * 1024);
    },
  );
});

describe("compileJSONSchema", () => {
  it("should keep a validator working after the instance that compiled it has been replaced", () => {
    const first = compileJSONSchema(listedSchema(), undefined);
    for (let index = 0; index <= compilesPerInstance; index++) compileJSONSchema(listedSchema(), undefined);
    expect(first({ id: "INC-1" })).toBe(true);
    expect(first({ id: "I" })).toBe(false);
    expect(first.errors?.[0]).toMatchObject({ instancePath: "/id", keyword: "minLength" });
  });
});
