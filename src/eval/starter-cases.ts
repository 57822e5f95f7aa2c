import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const tools = [
  {
    name: "lookup_incident",
    description: "The status, service and owning team of an incident",
    parameters: {
      type: "object",
      properties: { incident_id: { type: "string", description: "e.g. INC-1042" } },
      required: ["incident_id"],
    },
  },
  {
    name: "page_oncall",
    description: "Pages the on-call engineer of a team",
    parameters: {
      type: "object",
      properties: {
        team: { type: "string" },
        urgency: { type: "string", enum: ["low", "high"] },
      },
      required: ["team", "urgency"],
    },
  },
];

const system = {
  role: "system",
  content: "You are an incident-triage assistant. Use a tool when one fits; otherwise answer briefly.",
};

/** The turn a follow-up case starts from: the assistant's tool-call message and the tool's result. */
const lookedUp = [
  system,
  { role: "user", content: "What is going on with INC-1042?" },
  {
    role: "assistant",
    content: [{ type: "tool-call", id: "call_1", name: "lookup_incident", args: { incident_id: "INC-1042" } }],
  },
  {
    role: "tool",
    toolCallId: "call_1",
    toolName: "lookup_incident",
    content: '{"status":"open","service":"auth-api","team":"identity","summary":"login errors at 40%"}',
  },
];

/**
 * The cases `keelson eval --init` writes, by file name: a call under "auto", a forced call, a
 * follow-up turn after a tool result (how an assistant's tool-call message and the tool's answer are
 * written), a final answer from a tool result, and two restraint cases (`noToolCall`).
 */
export const starterCases: Readonly<Record<string, Record<string, unknown>>> = {
  "01-tool-call.json": {
    name: "01-tool-call",
    messages: [system, { role: "user", content: "What is the status of incident INC-1042?" }],
    tools,
    expect: { toolCalls: [{ name: "lookup_incident", args: { incident_id: "INC-1042" } }] },
  },
  "02-forced-tool-call.json": {
    name: "02-forced-tool-call",
    messages: [system, { role: "user", content: "The identity team must look at INC-1042 now, it is urgent." }],
    tools,
    toolChoice: "page_oncall",
    expect: { toolCalls: [{ name: "page_oncall", args: { team: "identity", urgency: "high" } }] },
  },
  "03-follow-up-turn.json": {
    name: "03-follow-up-turn",
    messages: [...lookedUp, { role: "user", content: "That is bad. Page the owning team, urgently." }],
    tools,
    expect: { toolCalls: [{ name: "page_oncall", args: { team: "identity", urgency: "high" } }] },
  },
  "04-answer-from-tool-result.json": {
    name: "04-answer-from-tool-result",
    messages: [...lookedUp, { role: "user", content: "Which service is affected? Just tell me." }],
    tools,
    expect: { noToolCall: true, text: { includes: ["auth-api"] } },
  },
  "05-restraint-small-talk.json": {
    name: "05-restraint-small-talk",
    messages: [system, { role: "user", content: "Thanks, that is all for today!" }],
    tools,
    expect: { noToolCall: true },
  },
  "06-restraint-general-question.json": {
    name: "06-restraint-general-question",
    messages: [system, { role: "user", content: "In one sentence: what does an on-call engineer do?" }],
    tools,
    expect: { noToolCall: true },
  },
};

/**
 * Writes the starter cases into `dir` (made if missing) and returns the paths written. Refuses,
 * writing nothing, when one of the files is there already.
 */
export function writeStarterCases(dir: string): string[] {
  const paths = Object.keys(starterCases).map((file) => join(dir, file));
  const existing = paths.filter((path) => existsSync(path));
  if (existing.length > 0) {
    throw new TypeError(
      `${existing.join(", ")} ${existing.length === 1 ? "exists" : "exist"} already: remove ${existing.length === 1 ? "it" : "them"} or pick another folder (keelson eval --init <folder>).`,
    );
  }
  mkdirSync(dir, { recursive: true });
  for (const [file, evalCase] of Object.entries(starterCases)) {
    writeFileSync(join(dir, file), `${JSON.stringify(evalCase, null, 2)}\n`);
  }
  return paths;
}
