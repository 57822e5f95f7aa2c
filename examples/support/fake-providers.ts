/**
 * Loopback fakes of four providers' HTTP APIs, for `record-cassettes.ts`: OpenAI's and Azure
 * OpenAI's chat completions, Ollama's /api/chat (HTTP/1.1) and Bedrock's Converse (cleartext
 * HTTP/2, as the AWS SDK speaks it). Each answers in its provider's documented response shape,
 * from what the request asks. They are fakes: no model runs here, and no byte leaves 127.0.0.1.
 */
import type { Http2ServerResponse } from "node:http2";
import type { ServerResponse } from "node:http";
import { sendJSON, startLoopbackServer, type RecordedRequest } from "../../test/support/loopback-server.js";
import { sendJSON as sendJSON2, startLoopbackHttp2Server } from "../../test/support/loopback-http2-server.js";

/** What the fake model decides to do with a request. */
type Decision = { kind: "call"; name: string; args: Record<string, unknown> } | { kind: "text"; text: string };

/** The same "model" behind every fake: it reads the conversation and picks an answer. */
function decide(body: string, hasToolResult: boolean): Decision {
  if (body.includes("page_oncall")) {
    return body.includes("auth-api")
      ? { kind: "call", name: "page_oncall", args: { team: "identity", severity: "sev1" } }
      : {
          kind: "call",
          name: "open_ticket",
          args: { team: "billing", title: "Nightly invoice export runs 3x slower than usual" },
        };
  }
  if (body.includes("lookup_incident") && !hasToolResult) {
    return { kind: "call", name: "lookup_incident", args: { incident_id: "INC-001" } };
  }
  return {
    kind: "text",
    text: "INC-001 is an auth-api outage: logins fail with 503 since 09:12 UTC. The identity team owns it.",
  };
}

function hasRole(json: any, role: string): boolean {
  return Array.isArray(json?.messages) && json.messages.some((message: { role?: string }) => message.role === role);
}

/** A chat.completion in OpenAI's shape (Azure OpenAI answers the same way). */
function openAICompletion(json: any, decision: Decision, callId: string): unknown {
  const message =
    decision.kind === "call"
      ? {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: callId,
              type: "function",
              function: { name: decision.name, arguments: JSON.stringify(decision.args) },
            },
          ],
        }
      : { role: "assistant", content: decision.text, refusal: null };
  return {
    id: `chatcmpl-fake-${callId}`,
    object: "chat.completion",
    created: 1764400000,
    model: json.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: decision.kind === "call" ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 142, completion_tokens: 24, total_tokens: 166 },
  };
}

/**
 * An /api/chat response. With a `format` schema the reply is JSON content (Ollama's grammar makes
 * it match); with tools and no format, native `tool_calls` (which carry no ids in Ollama's API).
 */
function ollamaChat(json: any, decision: Decision): unknown {
  let message: Record<string, unknown>;
  if (decision.kind === "call" && json.format !== undefined) {
    message = { role: "assistant", content: JSON.stringify({ name: decision.name, parameters: decision.args }) };
  } else if (decision.kind === "call") {
    message = {
      role: "assistant",
      content: "",
      tool_calls: [{ function: { name: decision.name, arguments: decision.args } }],
    };
  } else {
    message = { role: "assistant", content: decision.text };
  }
  return {
    model: json.model,
    created_at: "2026-11-29T18:00:00.000000Z",
    message,
    done_reason: "stop",
    done: true,
    total_duration: 812000000,
    load_duration: 21000000,
    prompt_eval_count: 131,
    prompt_eval_duration: 90000000,
    eval_count: 27,
    eval_duration: 600000000,
  };
}

/**
 * A Converse response. On the prompt rung (no tools sent) the fake writes the tool call as JSON in
 * a ```json fence, as instruction-tuned models often do; with tools it answers with a toolUse block.
 */
function converse(json: any, decision: Decision, toolUseId: string): unknown {
  const withTools = json.toolConfig !== undefined;
  let content: unknown[];
  let stopReason = "end_turn";
  if (decision.kind === "call" && withTools) {
    content = [{ toolUse: { toolUseId, name: decision.name, input: decision.args } }];
    stopReason = "tool_use";
  } else if (decision.kind === "call") {
    content = [
      { text: "```json\n" + JSON.stringify({ name: decision.name, parameters: decision.args }, null, 2) + "\n```" },
    ];
  } else {
    content = [{ text: decision.text }];
  }
  return {
    output: { message: { role: "assistant", content } },
    stopReason,
    usage: { inputTokens: 388, outputTokens: 41, totalTokens: 429 },
    metrics: { latencyMs: 640 },
  };
}

export interface WireRequest {
  method: string;
  /** Path and query (the loopback host and port left out). */
  path: string;
  /** The request body as the adapter's SDK sent it. Headers are not kept: they carry the (fake) credentials. */
  body: unknown;
}

export interface FakeProviders {
  /** Base URL of the HTTP/1.1 fake (OpenAI at /v1, Azure at /openai/deployments/…, Ollama at /api/chat). */
  httpURL: string;
  /** Base URL of the cleartext HTTP/2 fake of Bedrock's runtime endpoint. */
  http2URL: string;
  /** Takes the requests received since the last call. */
  takeRequests(): WireRequest[];
  close(): Promise<void>;
}

export async function startFakeProviders(): Promise<FakeProviders> {
  let received: WireRequest[] = [];
  let calls = 0;
  const keep = (request: RecordedRequest) =>
    received.push({ method: request.method, path: request.url, body: request.json });

  const http = await startLoopbackServer((request, response: ServerResponse) => {
    keep(request);
    const json = request.json;
    if (request.url.startsWith("/api/chat")) {
      return sendJSON(response, 200, ollamaChat(json, decide(request.body, hasRole(json, "tool"))));
    }
    if (request.url.includes("/chat/completions")) {
      const callId = `call_fake${String(++calls).padStart(3, "0")}`;
      return sendJSON(response, 200, openAICompletion(json, decide(request.body, hasRole(json, "tool")), callId));
    }
    return sendJSON(response, 404, { error: { message: `The fake has no ${request.url}` } });
  });

  const http2 = await startLoopbackHttp2Server();
  http2.handle((request, response: Http2ServerResponse) => {
    keep(request);
    const hasToolResult = JSON.stringify(request.json?.messages ?? []).includes("toolResult");
    sendJSON2(
      response,
      200,
      converse(request.json, decide(request.body, hasToolResult), `tooluse_fake${String(++calls).padStart(3, "0")}`),
    );
  });

  return {
    httpURL: http.url,
    http2URL: http2.url,
    takeRequests() {
      const taken = received;
      received = [];
      return taken;
    },
    close: async () => {
      await http.close();
      await http2.close();
    },
  };
}
