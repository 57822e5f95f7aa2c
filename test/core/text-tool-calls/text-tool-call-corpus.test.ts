import { describe, expect, it } from "vitest";
import { defineTool, type ChatModelInput, type Tool } from "../../../src/index.js";
import { ScriptedChatModel, rawStep, toolCallStep } from "../../../src/testing/index.js";
import { callModes, runCall, settleCall, user } from "../../support/run-modes.js";
import {
  hasSharedFixtures,
  missingFixturesMessage,
  readCassette,
  readJSONFixture,
} from "../../support/shared-fixtures.js";

/**
 * The corpus of tool calls written as text: every form below must come back as exactly these
 * calls (name and arguments), and none may reach a tool it does not name uniquely. Each vendor
 * form is the model response its vendor documents (cited per case, quoted as documented); the
 * `../shared` quotes are real output posted in issue threads.
 */
interface CorpusCase {
  source: string;
  text: string;
  tools: Tool[];
  calls: { name: string; args: Record<string, unknown> }[];
}

type Schema = Record<string, Record<string, unknown>>;

/** A JSON Schema tool: `properties` as given, `required` those listed. */
function tool(name: string, properties: Schema, required: string[] = Object.keys(properties)): Tool {
  return defineTool({ name, inputSchema: { type: "object", properties, required } });
}

const text = { type: "string" };
const integer = { type: "integer" };

const trendingSongs = tool("trending_songs", { n: integer, genre: text }, ["n"]);
const weather = tool("get_weather", { city: text, metric: text }, ["city"]);

const llama31 = "meta-llama/llama-models · llama_models/llama3_1/prompt_format.md";
const llama32 = "meta-llama/llama-models · models/llama3_2/text_prompt_format.md";
const llama4 = "meta-llama/llama-models · models/llama4/prompt_format.md";
const qwen25 = "https://qwen.readthedocs.io/en/v2.5/framework/function_call.html (Hermes-style template)";
const qwen3Coder =
  "https://huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct · chat_template.jinja (tool-call format)";
const hermes = "NousResearch/Hermes-Function-Calling · README.md";
const mistralCommon = "mistralai/mistral-common · src/mistral_common/tokens/tokenizers/tools.py";
const mistralCookbook = "mistralai/cookbook · concept-deep-dive/tokenization/tool_calling.md";
const gemma = "https://ai.google.dev/gemma/docs/capabilities/function-calling";
const gemma4 =
  "https://ai.google.dev/gemma/docs/capabilities/text/function-calling-gemma4 and https://ai.google.dev/gemma/docs/core/prompt-formatting-gemma4";
const gemma4vLLM = "https://docs.vllm.ai/en/latest/api/vllm/parser/gemma4/ (vLLM's gemma4 tool parser)";
const gemmaToolCode = "https://ai.google.dev/gemma/docs/meme-generator (calls wrapped in ```tool_code```)";

const vendorCorpus: CorpusCase[] = [
  {
    source: `${llama31} — <function> based tool calling`,
    text: '<function=trending_songs>{"n": 10}</function><|eot_id|>',
    tools: [trendingSongs],
    calls: [{ name: "trending_songs", args: { n: 10 } }],
  },
  {
    source: `${llama31} — the <function=…>{json} body with optional arguments only (issue 26: was read as {})`,
    text: '<function=search>{"query": "keelson"}</function>',
    tools: [tool("search", { query: text }, [])],
    calls: [{ name: "search", args: { query: "keelson" } }],
  },
  {
    source: `${llama31} — JSON based tool calling`,
    text: '<|python_tag|>{\n    "type": "function",\n    "name": "trending_songs",\n    "parameters": {\n        "n": "10",\n        "genre": "all"\n    }\n}<|eom_id|>',
    tools: [tool("trending_songs", { n: text, genre: text }, ["n"])],
    calls: [{ name: "trending_songs", args: { n: "10", genre: "all" } }],
  },
  {
    source: `${llama31} — built-in tool calling`,
    text: '<|python_tag|>brave_search.call(query="latest price of 1oz gold")<|eom_id|>',
    tools: [tool("brave_search", { query: text })],
    calls: [{ name: "brave_search", args: { query: "latest price of 1oz gold" } }],
  },
  {
    source: `${llama32} — zero shot function calling (two calls)`,
    text: "[get_weather(city='San Francisco', metric='celsius'), get_weather(city='Seattle', metric='celsius')]<|eot_id|>",
    tools: [weather],
    calls: [
      { name: "get_weather", args: { city: "San Francisco", metric: "celsius" } },
      { name: "get_weather", args: { city: "Seattle", metric: "celsius" } },
    ],
  },
  {
    source: `${llama32} — zero shot function calling with user message`,
    text: "[get_user_info(user_id=7890, special='black')]<|eot_id|>",
    tools: [tool("get_user_info", { user_id: integer, special: text }, ["user_id"])],
    calls: [{ name: "get_user_info", args: { user_id: 7890, special: "black" } }],
  },
  {
    source: `${llama32} — zero shot function calling E2E format`,
    text: '<|python_tag|>[get_weather(city="San Francisco", metric="celsius")]<|eot_id|>',
    tools: [weather],
    calls: [{ name: "get_weather", args: { city: "San Francisco", metric: "celsius" } }],
  },
  {
    source: `${llama4} — zero shot function calling, system message`,
    text: '[get_weather(city="San Francisco"), get_weather(city="Seattle")]<|eot|>',
    tools: [weather],
    calls: [
      { name: "get_weather", args: { city: "San Francisco" } },
      { name: "get_weather", args: { city: "Seattle" } },
    ],
  },
  {
    source: `${llama4} — zero shot function calling, system message (the CORRECT example)`,
    text: '[get_weather(location="Vancouver"), calculate_route(start="Boston", end="New York")]',
    tools: [tool("get_weather", { location: text }), tool("calculate_route", { start: text, end: text })],
    calls: [
      { name: "get_weather", args: { location: "Vancouver" } },
      { name: "calculate_route", args: { start: "Boston", end: "New York" } },
    ],
  },
  {
    source: `${llama4} — tool calling with custom formats`,
    text: '<function=trending_songs>{"n": 10}</function><|eot|>',
    tools: [trendingSongs],
    calls: [{ name: "trending_songs", args: { n: 10 } }],
  },
  {
    source: `${qwen25} — two <tool_call> blocks`,
    text:
      '<tool_call>\n{"name": "get_current_temperature", "arguments": {"location": "San Francisco, CA, USA"}}\n</tool_call>\n' +
      '<tool_call>\n{"name": "get_temperature_date", "arguments": {"location": "San Francisco, CA, USA", "date": "2024-10-01"}}\n</tool_call>',
    tools: [
      tool("get_current_temperature", { location: text, unit: text }, ["location"]),
      tool("get_temperature_date", { location: text, date: text, unit: text }, ["location", "date"]),
    ],
    calls: [
      { name: "get_current_temperature", args: { location: "San Francisco, CA, USA" } },
      { name: "get_temperature_date", args: { location: "San Francisco, CA, USA", date: "2024-10-01" } },
    ],
  },
  {
    source: `${qwen25} — Qwen3 thinking text before the call, left in the content by a server without a reasoning parser`,
    text: '<think>\nThe user wants Paris.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    tools: [weather],
    calls: [{ name: "get_weather", args: { city: "Paris" } }],
  },
  {
    source: `${qwen3Coder} — <function=…><parameter=…> inside <tool_call>`,
    text: "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
    tools: [tool("get_weather", { city: text, days: integer })],
    calls: [{ name: "get_weather", args: { city: "Paris", days: 3 } }],
  },
  {
    source: `${hermes} — Hermes <tool_call> with arguments before the name`,
    text: '<tool_call>\n{"arguments": {"symbol": "TSLA"}, "name": "get_stock_fundamentals"}\n</tool_call>',
    tools: [tool("get_stock_fundamentals", { symbol: text })],
    calls: [{ name: "get_stock_fundamentals", args: { symbol: "TSLA" } }],
  },
  {
    source: `${mistralCookbook} — tokenizer V2`,
    text: '[TOOL_CALLS] [{"name": "calculator", "arguments": {"operation": "2+2", "format": "celsius"}}]',
    tools: [tool("calculator", { operation: text }, ["operation"])],
    calls: [{ name: "calculator", args: { operation: "2+2", format: "celsius" } }],
  },
  {
    source: `${mistralCookbook} — tokenizer V3 Tekken (call with id)`,
    text: '[TOOL_CALLS][{"name": "calculator", "arguments": {"operation": "2+2", "format": "celsius"}, "id": "VvvODy9mT"}]',
    tools: [tool("calculator", { operation: text }, ["operation"])],
    calls: [{ name: "calculator", args: { operation: "2+2", format: "celsius" } }],
  },
  {
    source: `${mistralCommon} — v11+ without call id, two calls`,
    text: '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_weather[ARGS]{"city": "Lyon", "metric": "celsius"}',
    tools: [weather],
    calls: [
      { name: "get_weather", args: { city: "Paris" } },
      { name: "get_weather", args: { city: "Lyon", metric: "celsius" } },
    ],
  },
  {
    source: `${mistralCommon} — v11 with call id`,
    text: '[TOOL_CALLS]get_weather[CALL_ID]abc123def[ARGS]{"city": "Paris"}',
    tools: [weather],
    calls: [{ name: "get_weather", args: { city: "Paris" } }],
  },
  {
    source: `${gemma} — Python-style function calling output`,
    text: '[get_product_name_by_PID(PID="807ZPKBL9V")]',
    tools: [tool("get_product_name_by_PID", { PID: text })],
    calls: [{ name: "get_product_name_by_PID", args: { PID: "807ZPKBL9V" } }],
  },
  {
    source: `${gemma} — the JSON output format it also documents`,
    text: '{"name": "get_product_name_by_PID", "parameters": {"PID": "807ZPKBL9V"}}',
    tools: [tool("get_product_name_by_PID", { PID: text })],
    calls: [{ name: "get_product_name_by_PID", args: { PID: "807ZPKBL9V" } }],
  },
  {
    source: `${gemmaToolCode} — written in that documented format`,
    text: '```tool_code\ngenerate_meme(image="cat.png", top_text="When the build is green", bottom_text="on the first try")\n```',
    tools: [tool("generate_meme", { image: text, top_text: text, middle_text: text, bottom_text: text }, ["image"])],
    calls: [
      {
        name: "generate_meme",
        args: { image: "cat.png", top_text: "When the build is green", bottom_text: "on the first try" },
      },
    ],
  },
  {
    source: `${gemma4} — the model's tool call in the native format`,
    text: '<|tool_call>call:get_current_temperature{location:<|"|>London<|"|>}<tool_call|>',
    tools: [tool("get_current_temperature", { location: text, unit: text }, ["location"])],
    calls: [{ name: "get_current_temperature", args: { location: "London" } }],
  },
  {
    source: `${gemma4vLLM} — a string and a number; several calls follow one another without separators`,
    text: '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|><|tool_call>call:get_weather{city:<|"|>Lyon<|"|>,days:1}<tool_call|>',
    tools: [tool("get_weather", { city: text, days: integer })],
    calls: [
      { name: "get_weather", args: { city: "Paris", days: 3 } },
      { name: "get_weather", args: { city: "Lyon", days: 1 } },
    ],
  },
  {
    source: `${gemma4vLLM} — the thought channel before the call, left in the content by a server without the gemma4 parser`,
    text: '<|channel>thought\nThe user wants the weather in Oslo.<channel|><|tool_call>call:get_weather{city:<|"|>Oslo<|"|>}<tool_call|>',
    tools: [weather],
    calls: [{ name: "get_weather", args: { city: "Oslo" } }],
  },
  {
    source: `${gemma4} — nested objects, lists (as its tool declarations write an enum) and booleans, in that format`,
    text:
      '<|tool_call>call:search_incidents{query:<|"|>db "primary", {eu}: down<|"|>,' +
      'filters:{services:[<|"|>auth-api<|"|>,<|"|>billing<|"|>],open:true,owner:null},limit:5,score:-0.5}<tool_call|>',
    tools: [tool("search_incidents", { query: text, filters: { type: "object" }, limit: integer, score: {} })],
    calls: [
      {
        name: "search_incidents",
        args: {
          query: 'db "primary", {eu}: down',
          filters: { services: ["auth-api", "billing"], open: true, owner: null },
          limit: 5,
          score: -0.5,
        },
      },
    ],
  },
];

interface Quote {
  thread: string;
  posted_output?: string;
}

/** The real quotes in ../shared, with the tools their models were calling. */
function quotedCorpus(): CorpusCase[] {
  const quotes = readJSONFixture<Quote[]>("malformed-tool-calls/issue-thread-quotes.json");
  const posted = (thread: string) => quotes.find((quote) => quote.thread === thread)!.posted_output!;
  const loose = (name: string, keys: string[]) =>
    tool(name, Object.fromEntries(keys.map((key) => [key, {}])) as Schema, keys);
  const source = (thread: string) => `../shared/fixtures/malformed-tool-calls/issue-thread-quotes.json · ${thread}`;
  return [
    {
      source: source("ollama/ollama#11185"),
      text: posted("ollama/ollama#11185"),
      tools: [loose("LLM_Tool_RAG", ["term", "vector"])],
      calls: [
        {
          name: "LLM_Tool_RAG",
          args: { term: "accidents, tribunal de Versailles", vector: "accidents tribunal Versailles jugements" },
        },
      ],
    },
    {
      source: source("ollama/ollama#11662"),
      text: posted("ollama/ollama#11662"),
      tools: [loose("repeat_string", ["string"])],
      calls: [{ name: "repeat_string", args: { string: "bar" } }],
    },
    {
      source: source("ollama/ollama#12174"),
      text: posted("ollama/ollama#12174"),
      tools: [loose("calculator", ["expr"])],
      calls: [{ name: "calculator", args: { expr: "17 * 23" } }],
    },
    {
      source: source("ollama/ollama#12017"),
      text: posted("ollama/ollama#12017"),
      tools: [loose("write_log", ["message"])],
      calls: [{ name: "write_log", args: { message: "}A" } }],
    },
    {
      source: source("ollama/ollama#14745"),
      text: posted("ollama/ollama#14745"),
      tools: [tool("bash", { command: text, description: text })],
      calls: [
        { name: "bash", args: { command: 'grep "redacted" | head -20', description: "Find Valkey initialization" } },
      ],
    },
    {
      source: source("ardanlabs/kronk#950"),
      text: posted("ardanlabs/kronk#950"),
      tools: [loose("get_weather", ["location"])],
      calls: [{ name: "get_weather", args: { location: "Paris" } }],
    },
    {
      source: source("vllm-project/vllm#54964"),
      text: posted("vllm-project/vllm#54964"),
      tools: [loose("get_db_config", ["param"])],
      calls: [{ name: "get_db_config", args: { param: "max_connections" } }],
    },
    {
      source: source("ggml-org/llama.cpp#24667"),
      text: posted("ggml-org/llama.cpp#24667"),
      tools: [tool("python", { code: text })],
      // The arguments as posted: the model's doubled escape is its own text, kept as written.
      calls: [{ name: "python", args: { code: "print('hello')\\nprint('world')" } }],
    },
  ];
}

const corpus = (): CorpusCase[] => (hasSharedFixtures ? [...vendorCorpus, ...quotedCorpus()] : vendorCorpus);

function forced(entry: CorpusCase): ChatModelInput {
  return {
    messages: [user("q")],
    tools: entry.tools,
    toolChoice: "required",
    ...(entry.calls.length > 1 ? { parallelToolCalls: true } : {}),
  };
}

describe("Tool calls written as text: the recovery corpus", () => {
  if (!hasSharedFixtures) it.skip(`issue-thread quotes: ${missingFixturesMessage}`, () => {});

  describe.each(callModes)("through %s", (mode) => {
    it.each(corpus().map((entry) => [entry.source, entry] as const))(
      "should recover exactly the calls of %s",
      async (_source, entry) => {
        const model = new ScriptedChatModel([rawStep(entry.text)], { maxRepairAttempts: 0 });
        const { output } = await runCall(model, forced(entry), mode);
        expect(output.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual(entry.calls);
        expect(output.meta.repairs).toContainEqual(expect.objectContaining({ kind: "text-tool-call" }));
        expect(output.finishReason).toBe("tool-calls");
      },
    );

    it("should recover 100 % of the corpus, with no call to a tool it does not name", async () => {
      let exact = 0;
      let stray = 0;
      const entries = corpus();
      for (const entry of entries) {
        const model = new ScriptedChatModel([rawStep(entry.text)], { maxRepairAttempts: 0 });
        const { output, error } = await settleCall(model, forced(entry), mode);
        const calls = output?.toolCalls.map(({ name, args }) => ({ name, args })) ?? [];
        if (error === undefined && JSON.stringify(calls) === JSON.stringify(entry.calls)) exact++;
        stray += calls.filter((call) => !entry.calls.some((wanted) => wanted.name === call.name)).length;
      }
      expect({ exact, of: entries.length, stray }).toEqual({ exact: entries.length, of: entries.length, stray: 0 });
    });
  });
});

describe.skipIf(!hasSharedFixtures)("Tool calls written as text: what must not be recovered", () => {
  if (!hasSharedFixtures) it.skip(missingFixturesMessage, () => {});
  const failed = (file: string) =>
    hasSharedFixtures ? readJSONFixture<{ error: { failed_generation: string } }>(file).error.failed_generation : "";
  const groqTool = () => {
    const [first] = readCassette("extra/malformed/groq-400-tool-use-failed-then-valid-call.cassette.yaml");
    const body = first!.request.parsed_body as { tools: { function: { name: string; parameters: object } }[] };
    const { name, parameters } = body.tools[0]!.function;
    return defineTool({ name, inputSchema: parameters as Record<string, unknown> });
  };

  describe.each(callModes)("through %s", (mode) => {
    it("should re-ask, not recover, the call Groq refused for arguments that miss the schema", async () => {
      // Groq's own tool_use_failed body: the model's call `{"foo": "bar"}` for a tool that takes `{ name }`.
      const generation = failed("extra/malformed/groq-400-tool-use-failed-then-valid-call.0.json");
      const model = new ScriptedChatModel([
        rawStep(generation),
        toolCallStep("get_something_by_name", { name: "test" }),
      ]);
      const { output } = await runCall(
        model,
        { messages: [user("q")], tools: [groqTool()], toolChoice: "required" },
        mode,
      );
      expect(output.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual([
        { name: "get_something_by_name", args: { name: "test" } },
      ]);
      expect(output.meta.attempts).toHaveLength(2);
      expect(model.calls[1]!.messages.at(-1)!.content).toContain("get_something_by_name");
    });

    it("should re-ask the reply Groq refused as no tool call at all ('maybe')", async () => {
      const generation = failed("extra/malformed/groq-400-required-tool-not-called-then-valid-call.0.json");
      expect(generation).toBe("maybe");
      const finalResult = defineTool({
        name: "final_result",
        inputSchema: { type: "object", properties: { response: { enum: ["yes", "no"] } }, required: ["response"] },
      });
      const model = new ScriptedChatModel([rawStep(generation), toolCallStep("final_result", { response: "yes" })]);
      const { output } = await runCall(
        model,
        { messages: [user("q")], tools: [finalResult], toolChoice: "required" },
        mode,
      );
      expect(output.toolCalls[0]).toMatchObject({ name: "final_result", args: { response: "yes" } });
      expect(output.meta.attempts[0]!.rejected).toMatch(/must call/);
    });
  });
});
