import { z } from "zod";
import { defineTool } from "../../../../src/index.js";
import { readJSONFixture } from "../../../support/shared-fixtures.js";

/**
 * Test data of our own for tool calls written as text under `toolChoice: "auto"`: the tools an
 * agent has, replies that are ordinary answers (they must stay text, whatever JSON, code or tool
 * names they hold), replies shaped like calls that the strict rule still leaves as text, and
 * replies that are nothing but calls (recovered). Written for these tests, not recorded.
 */
export const corpusTools = [
  defineTool({
    name: "get_weather",
    description: "The weather in a city.",
    inputSchema: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]).optional() }),
  }),
  defineTool({
    name: "search",
    description: "Searches the docs.",
    inputSchema: z.object({ query: z.string(), limit: z.number().int().optional() }),
  }),
  defineTool({
    name: "lookup_incident",
    description: "One incident by id.",
    inputSchema: z.object({ incident_id: z.string() }),
  }),
  // Every argument optional: the tool a loose reader would "call" with any object at all.
  defineTool({
    name: "list_incidents",
    description: "Open incidents.",
    inputSchema: z.object({ status: z.string().optional(), service: z.string().optional() }),
  }),
];

export interface CorpusReply {
  label: string;
  text: string;
}

const fence = "```";

/** Ordinary answers: JSON, code, markup and tool names in prose. Every one must stay text. */
export const ordinaryReplies: CorpusReply[] = [
  { label: "prose naming a tool", text: "I can use get_weather to check Paris for you. Want me to?" },
  { label: "a clarifying question", text: "Which city do you mean? I'll run get_weather once I know." },
  {
    label: "a Python-style call quoted in prose",
    text: 'Earlier I called get_weather(city="Paris") and it said 18 °C with light rain.',
  },
  {
    label: "inline code naming a tool",
    text: 'Run `search(query="keelson retry")` in the console, or ask me to do it.',
  },
  {
    label: "a JSON call example after prose",
    text: `To call the tool yourself, send:\n${fence}json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n${fence}`,
  },
  {
    label: "a call envelope followed by an explanation",
    text: '{"name": "get_weather", "arguments": {"city": "Paris"}}\n\nThat is how a call to the weather tool looks.',
  },
  {
    label: "a call envelope after a colon",
    text: 'Here is the call I would make: {"name": "search", "arguments": {"query": "rate limits"}}',
  },
  { label: "a JSON object answer", text: '{"city": "Paris", "temperature": 18, "unit": "celsius"}' },
  {
    label: "a JSON array answer",
    text: '[{"id": "INC-001", "status": "open"}, {"id": "INC-002", "status": "closed"}]',
  },
  { label: "a fenced JSON answer with a name key", text: `${fence}json\n{"name": "Alice", "age": 30}\n${fence}` },
  {
    label: "an envelope-shaped example for a tool this call does not have",
    text: '{"name": "rename_file", "arguments": {"from": "a.txt", "to": "b.txt"}}',
  },
  {
    label: "a tool definition in OpenAI's shape (all-optional tool)",
    text: '{"type": "function", "function": {"name": "list_incidents", "description": "Open incidents.", "parameters": {"type": "object", "properties": {}}}}',
  },
  {
    label: "a tool definition with name, description and parameters (all-optional tool)",
    text: '{"name": "list_incidents", "description": "Open incidents.", "parameters": {"type": "object", "properties": {"status": {"type": "string"}}}}',
  },
  {
    label: "a JSON answer then prose",
    text: '{"status": "ok", "uptime": 99.98}\n\nThat is what the health endpoint returned.',
  },
  {
    label: "JSON lines of a log",
    text: '{"level": "info", "msg": "started"}\n{"level": "error", "msg": "db down"}',
  },
  {
    label: "a package.json answer",
    text: `${fence}json\n{\n  "name": "my-app",\n  "version": "1.0.0",\n  "scripts": {"test": "vitest"}\n}\n${fence}\n\nAdd the scripts block and run npm test.`,
  },
  {
    label: "a Python function named like a tool",
    text: `${fence}python\ndef get_weather(city):\n    return requests.get(f"https://wttr.in/{city}").text\n${fence}`,
  },
  {
    label: "Python code calling a tool-named function",
    text: `${fence}python\nresult = get_weather(city="Paris")\nprint(result)\n${fence}`,
  },
  {
    label: "a fenced Python-style call and its explanation",
    text: `${fence}python\nget_weather(city="Paris")\n${fence}\nThis asks the weather API for Paris.`,
  },
  { label: "a shell block", text: `${fence}bash\ncurl -s https://api.example.com/incidents | jq '.[0]'\n${fence}` },
  { label: "an SQL block", text: `${fence}sql\nSELECT id, status FROM incidents WHERE status = 'open';\n${fence}` },
  {
    label: "a TypeScript block",
    text: `${fence}ts\nconst output = await model.create({ messages, tools: [getWeather] });\n${fence}`,
  },
  { label: "a Markdown link first", text: "[Paris weather](https://example.com/paris) says 18 °C today." },
  { label: "a bracketed note naming a tool", text: "[search] is down right now; I answered from memory." },
  { label: "a list of numbers", text: "[1, 2, 3, 5, 8]" },
  { label: "a Python list of a positional call", text: "[sorted(items)]" },
  { label: "Markdown links in a list", text: "- [Docs](https://example.com/docs)\n- [API](https://example.com/api)" },
  { label: "HTML", text: '<div class="weather">Paris: 18 °C</div>' },
  { label: "XML", text: "<response><city>Paris</city><temp>18</temp></response>" },
  {
    label: "a <tool_call> tag explained in prose",
    text: "Qwen models mark calls with <tool_call>{…}</tool_call> blocks; keelson reads them.",
  },
  {
    label: "a reply that opens with a <tool_call> tag but is prose",
    text: "<tool_call> tags are how Hermes-style models mark a call.",
  },
  { label: "a [TOOL_CALLS] marker in prose", text: "Mistral marks calls with [TOOL_CALLS] before the JSON." },
  {
    label: "a reply that opens with [TOOL_CALLS] but is prose",
    text: "[TOOL_CALLS] is the marker Mistral's template puts before a call.",
  },
  { label: "a think block then an answer", text: "<think>I can answer from memory.</think>\nParis is 18 °C." },
  { label: "a think block then a JSON answer", text: '<think>The user wants JSON.</think>\n{"temperature": 18}' },
  { label: "YAML", text: "name: get_weather\narguments:\n  city: Paris" },
  {
    label: "a numbered plan naming tools",
    text: "1. Call search for the runbook.\n2. Call lookup_incident with INC-001.\n3. Summarise.",
  },
  { label: "a Markdown table of tools", text: "| tool | use |\n|---|---|\n| get_weather | weather |" },
  { label: "a one-word answer", text: "OK." },
  { label: "Unicode and emoji", text: "Paris ☀️ 18 °C — ça va !" },
  { label: "a JSON string literal", text: '"Paris"' },
  { label: "a number", text: "42" },
  {
    label: "a Gemma-style call quoted in prose",
    text: 'Gemma would write <|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|> here.',
  },
  {
    label: "a Llama function tag explained",
    text: 'Llama 3.1 writes <function=get_weather>{"city": "Paris"}</function> when prompted that way.',
  },
  { label: "a diff", text: "--- a/app.ts\n+++ b/app.ts\n@@\n-const x = 1;\n+const x = 2;" },
  { label: "an empty JSON object", text: "{}" },
  { label: "an empty array", text: "[]" },
];

/** Replies shaped like calls that the strict rule leaves as text (under "auto" they are answers). */
export const callLikeReplies: CorpusReply[] = [
  { label: "a call to a tool that does not exist", text: '{"name": "delete_everything", "arguments": {}}' },
  { label: "arguments that miss the schema", text: '{"name": "get_weather", "arguments": {"town": "Paris"}}' },
  { label: "arguments of the wrong type", text: '{"name": "search", "arguments": {"query": 5}}' },
  {
    label: "one valid call and one invalid",
    text:
      '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n' +
      '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
  },
  {
    label: "prose before a tagged call",
    text: 'Let me check.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
  },
  {
    label: "prose after a tagged call",
    text: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\nI will report back.',
  },
  { label: "a bare Python-style call (no brackets, tag or fence)", text: 'get_weather(city="Paris")' },
  { label: "arguments without a name", text: '{"query": "TO-DO", "limit": 10}' },
];

/** Replies that are nothing but calls to the corpus tools, in every recognised form: recovered. */
export const textCallReplies: (CorpusReply & { calls: { name: string; args: Record<string, unknown> }[] })[] = [
  {
    label: "a bare envelope",
    text: '{"name": "get_weather", "arguments": {"city": "Paris"}}',
    calls: [{ name: "get_weather", args: { city: "Paris" } }],
  },
  {
    label: "an envelope with parameters",
    text: '{"name": "search", "parameters": {"query": "retry budget", "limit": 3}}',
    calls: [{ name: "search", args: { query: "retry budget", limit: 3 } }],
  },
  {
    label: "OpenAI's call shape",
    text: '{"type": "function", "function": {"name": "lookup_incident", "arguments": "{\\"incident_id\\": \\"INC-001\\"}"}}',
    calls: [{ name: "lookup_incident", args: { incident_id: "INC-001" } }],
  },
  {
    label: "a <tool_call> block",
    text: '<tool_call>\n{"name": "lookup_incident", "arguments": {"incident_id": "INC-001"}}\n</tool_call>',
    calls: [{ name: "lookup_incident", args: { incident_id: "INC-001" } }],
  },
  {
    label: "two <tool_call> blocks",
    text:
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n' +
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lyon", "unit": "celsius"}}\n</tool_call>',
    calls: [
      { name: "get_weather", args: { city: "Paris" } },
      { name: "get_weather", args: { city: "Lyon", unit: "celsius" } },
    ],
  },
  {
    label: "a think block, then a <tool_call>",
    text: '<think>\nThe user wants Paris.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    calls: [{ name: "get_weather", args: { city: "Paris" } }],
  },
  {
    label: "Qwen3-Coder's function and parameter tags",
    text: "<tool_call>\n<function=search>\n<parameter=query>\nrunbook auth-api\n</parameter>\n<parameter=limit>\n2\n</parameter>\n</function>\n</tool_call>",
    calls: [{ name: "search", args: { query: "runbook auth-api", limit: 2 } }],
  },
  {
    label: "Llama 3.1's function tag",
    text: '<function=lookup_incident>{"incident_id": "INC-002"}</function><|eot_id|>',
    calls: [{ name: "lookup_incident", args: { incident_id: "INC-002" } }],
  },
  {
    label: "a Python-style call list",
    text: '[get_weather(city="Paris"), search(query="umbrella")]',
    calls: [
      { name: "get_weather", args: { city: "Paris" } },
      { name: "search", args: { query: "umbrella" } },
    ],
  },
  {
    label: "Llama 3.1's python tag",
    text: '<|python_tag|>{"name": "search", "parameters": {"query": "keelson"}}<|eom_id|>',
    calls: [{ name: "search", args: { query: "keelson" } }],
  },
  {
    label: "Mistral's [TOOL_CALLS] JSON list",
    text: '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Oslo"}}]',
    calls: [{ name: "get_weather", args: { city: "Oslo" } }],
  },
  {
    label: "Mistral's [TOOL_CALLS]name[ARGS]",
    text: '[TOOL_CALLS]get_weather[ARGS]{"city": "Rome"}',
    calls: [{ name: "get_weather", args: { city: "Rome" } }],
  },
  {
    label: "a fenced envelope",
    text: `${fence}json\n{"name": "lookup_incident", "arguments": {"incident_id": "INC-003"}}\n${fence}`,
    calls: [{ name: "lookup_incident", args: { incident_id: "INC-003" } }],
  },
  {
    label: "Gemma's tool_code fence",
    text: `${fence}tool_code\nget_weather(city="Berlin")\n${fence}`,
    calls: [{ name: "get_weather", args: { city: "Berlin" } }],
  },
  {
    label: "Gemma 4's native form",
    text: '<|tool_call>call:get_weather{city:<|"|>Madrid<|"|>}<tool_call|>',
    calls: [{ name: "get_weather", args: { city: "Madrid" } }],
  },
  {
    label: "one envelope per line",
    text: '{"name": "get_weather", "arguments": {"city": "Paris"}}\n{"name": "get_weather", "arguments": {"city": "Nice"}}',
    calls: [
      { name: "get_weather", args: { city: "Paris" } },
      { name: "get_weather", args: { city: "Nice" } },
    ],
  },
  {
    label: "a call to the all-optional tool",
    text: '{"name": "list_incidents", "arguments": {"status": "open"}}',
    calls: [{ name: "list_incidents", args: { status: "open" } }],
  },
];

/** One quote of ../shared/fixtures/malformed-tool-calls/issue-thread-quotes.json (real output posted in an issue thread). */
export interface Quote {
  thread: string;
  kind: string;
  posted_output: string;
}

export function readQuotes(): Quote[] {
  return readJSONFixture<Quote[]>("malformed-tool-calls/issue-thread-quotes.json");
}

const loose = (name: string, keys: string[]) =>
  defineTool({
    name,
    inputSchema: { type: "object", properties: Object.fromEntries(keys.map((key) => [key, {}])), required: keys },
  });

/**
 * The tools each quoted model was calling (as its thread names them), and the calls its reply is
 * when read whole; `undefined` where the reply, as posted, is not nothing but calls (prose around a
 * call, arguments without a name, a server's error text) and stays text under "auto".
 */
export const quoteReadings: Record<
  string,
  { tools: ReturnType<typeof loose>[]; calls?: { name: string; args: Record<string, unknown> }[] }
> = {
  "ollama/ollama#11185": {
    tools: [loose("LLM_Tool_RAG", ["term", "vector"])],
    calls: [
      {
        name: "LLM_Tool_RAG",
        args: { term: "accidents, tribunal de Versailles", vector: "accidents tribunal Versailles jugements" },
      },
    ],
  },
  "ollama/ollama#11662": {
    tools: [loose("repeat_string", ["string"])],
    calls: [{ name: "repeat_string", args: { string: "bar" } }],
  },
  "ollama/ollama#12174": {
    tools: [loose("calculator", ["expr"])],
    calls: [{ name: "calculator", args: { expr: "17 * 23" } }],
  },
  "ollama/ollama#12017": {
    tools: [loose("write_log", ["message"])],
    calls: [{ name: "write_log", args: { message: "}A" } }],
  },
  // "Thinking: …" prose before the <tool_call>: under "auto" that is text (under "required" it is recovered).
  "ollama/ollama#14745": { tools: [loose("bash", ["command", "description"])] },
  "ardanlabs/kronk#950": {
    tools: [loose("get_weather", ["location"])],
    calls: [{ name: "get_weather", args: { location: "Paris" } }],
  },
  "vllm-project/vllm#54964": {
    tools: [loose("get_db_config", ["param"])],
    calls: [{ name: "get_db_config", args: { param: "max_connections" } }],
  },
  "livekit/agents#5409": { tools: [loose("lookup_order", ["order_id"])] },
  "ggml-org/llama.cpp#24667": {
    tools: [loose("python", ["code"])],
    calls: [{ name: "python", args: { code: "print('hello')\\nprint('world')" } }],
  },
  "librefang/librefang#2975": { tools: [loose("search", ["query", "limit"])] },
  "ollama/ollama#12064": { tools: [loose("apply_patch", ["input"])] },
  "ollama/ollama#17638": { tools: [loose("apply_patch", ["input"])] },
};
