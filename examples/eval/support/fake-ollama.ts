/**
 * A loopback fake of Ollama's /api/chat for the starter eval suite: a "model" written by us that
 * answers each case of examples/eval/ from its question, in Ollama's response shape, and behaves
 * differently on each ladder rung, as local models do — so the report has something to show:
 * native tool calls without ids (keelson fills them), an enum value outside the enum on the first
 * try, arguments as a JSON string; JSON content under a `format` schema (the response-format rung);
 * fenced and sometimes broken JSON, and one wrong tool, when the schema is only in the prompt.
 * No model runs here, and no byte leaves 127.0.0.1.
 */
import { sendJSON, startLoopbackServer, type LoopbackServer } from "../../../test/support/loopback-server.js";

type Call = { name: string; arguments: Record<string, unknown> };
type Answer = { calls: Call[] } | { text: string } | { object: Record<string, unknown> };

const meeting = {
  title: "Incident review",
  when: { date: "2026-12-03", time: "10:00" },
  attendees: [
    { name: "Ana", email: "ana@example.com" },
    { name: "Bo", email: "bo@example.com" },
  ],
};

/** The right answer to each question (the first phrase found in the first user message wins). */
const answers: [phrase: string, answer: Answer][] = [
  ["Bergen", { text: "It is 12°C and raining in Bergen." }],
  ["Oslo and Rome", { calls: [call("get_weather", { city: "Oslo" }), call("get_weather", { city: "Rome" })] }],
  ["weather in Oslo", { calls: [call("get_weather", { city: "Oslo", unit: "celsius" })] }],
  ["Paris", { calls: [call("get_weather", { city: "Paris" })] }],
  ["Tokyo", { calls: [call("get_time", { timezone: "Asia/Tokyo" })] }],
  ["rate limits", { calls: [call("search_docs", { query: "API rate limits" })] }],
  [
    "ticket",
    { calls: [call("create_ticket", { title: "Invoices are sent twice", team: "billing", priority: "high" })] },
  ],
  ["meeting", { calls: [call("schedule_meeting", meeting)] }],
  ["Hello", { text: "Hello! How can I help you today?" }],
  ["2 + 2", { text: "4" }],
  ["INC-001", { calls: [call("lookup_incident", { incident_id: "INC-001" })] }],
  ["Lyon", { object: { city: "Lyon", country: "France" } }],
];

function call(name: string, args: Record<string, unknown>): Call {
  return { name, arguments: args };
}

const text = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content ?? ""));

/** What the fake answers to one /api/chat body: the assistant message. */
function reply(body: any): Record<string, unknown> {
  const messages: { role: string; content?: unknown }[] = body.messages ?? [];
  const question = text(messages.find((message) => message.role === "user")?.content);
  const reAsk = messages.some(
    (message) => message.role === "user" && text(message.content).startsWith("Your previous reply"),
  );
  const toolResult = messages.at(-1)?.role === "tool";
  const answer: Answer = (toolResult ? answers[0]![1] : answers.find(([phrase]) => question.includes(phrase))?.[1]) ?? {
    text: "I am not sure.",
  };
  if ("text" in answer) return { role: "assistant", content: answer.text };
  if ("object" in answer) return { role: "assistant", content: JSON.stringify(answer.object) };
  const union = answer.calls.map((one) => ({ name: one.name, parameters: one.arguments }));
  const unionText = JSON.stringify(union.length === 1 ? union[0] : union);
  if (body.format !== undefined) return { role: "assistant", content: unionText };
  if (body.tools === undefined) {
    // The prompt rung: the schema came as an instruction. The fake fences its JSON, breaks the
    // nested one, and reaches for the wrong tool on the docs question.
    if (question.includes("rate limits")) {
      return { role: "assistant", content: '```json\n{"name": "get_time", "parameters": {"timezone": "UTC"}}\n```' };
    }
    if (question.includes("meeting")) return { role: "assistant", content: unionText.slice(0, -1) };
    return { role: "assistant", content: "```json\n" + unionText + "\n```" };
  }
  // Native tool calls. Ollama sends no call ids; the first ticket goes out with a priority
  // outside the enum (keelson re-asks), the meeting's arguments as a JSON string.
  const calls = answer.calls.map((one) => {
    if (one.name === "create_ticket" && !reAsk)
      return { function: { ...one, arguments: { ...one.arguments, priority: "urgent" } } };
    if (one.name === "schedule_meeting")
      return { function: { name: one.name, arguments: JSON.stringify(one.arguments) } };
    return { function: one };
  });
  return { role: "assistant", content: "", tool_calls: calls };
}

/** Starts the fake on 127.0.0.1; `url` is the `host` to give OllamaChatModel. */
export async function startFakeOllama(): Promise<LoopbackServer> {
  return startLoopbackServer((request, response) => {
    if (request.url !== "/api/chat") return sendJSON(response, 404, { error: `no route ${request.url}` });
    const body = request.json;
    sendJSON(response, 200, {
      model: body.model,
      created_at: "2026-12-01T12:00:00.000000Z",
      message: reply(body),
      done_reason: "stop",
      done: true,
      total_duration: 412000000,
      prompt_eval_count: 96 + body.messages.length * 18,
      eval_count: 24,
    });
  });
}
