import type { IncomingHttpHeaders } from "node:http";
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { MemoryCache } from "../../src/index.js";
import type { ChatModel, ChatModelEvents } from "../../src/index.js";
import { replyOf, useBedrockLoopback } from "../support/bedrock-loopback.js";
import { encodeEvents } from "../support/aws-event-stream.js";
import type { Handler, LoopbackServer } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { openAITextReply } from "../support/openai-wire.js";
import { callModes, type CallMode } from "../support/run-modes.js";

const openAIKey = "sk-SENTINEL-openai-5f2a9c";
const azureKey = "SENTINEL-azure-key-77e1b0";
const awsSecret = "SENTINEL-aws-secret-9d3c";
const awsSessionToken = "SENTINEL-aws-session-token-4b8e";
const ollamaKey = "SENTINEL-ollama-key-3c6f1a";
const ollamaPassword = "SENTINEL-ollama-password-81d2";
const bedrockAPIKey = "SENTINEL-bedrock-api-key-6a0d";
const sentinels = [openAIKey, azureKey, awsSecret, awsSessionToken, ollamaKey, ollamaPassword, bedrockAPIKey];

const eventNames: (keyof ChatModelEvents)[] = [
  "start",
  "newToken",
  "retry",
  "repair",
  "fallback",
  "cacheHit",
  "warning",
  "success",
  "error",
  "finish",
];

/** Every string reachable from `value`: own properties (hidden ones too), Headers, Maps, the cause chain. */
function reachableStrings(value: unknown, seen = new Set<unknown>(), out: string[] = [], depth = 0): string[] {
  if (typeof value === "string") {
    out.push(value);
    return out;
  }
  if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value) || depth > 12)
    return out;
  seen.add(value);
  if (value instanceof Headers || value instanceof Map) {
    for (const [key, entry] of value as Iterable<[unknown, unknown]>)
      reachableStrings([key, entry], seen, out, depth + 1);
  }
  if (typeof value === "function") return out;
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && "value" in descriptor) reachableStrings(descriptor.value, seen, out, depth + 1);
  }
  if (value instanceof Error)
    reachableStrings([value.message, value.stack, (value as { cause?: unknown }).cause], seen, out, depth + 1);
  return out;
}

function expectNoSecret(label: string, value: unknown): void {
  const texts = [...reachableStrings(value), inspect(value, { depth: 12, showHidden: true })];
  for (const text of texts)
    for (const secret of sentinels)
      expect(text.includes(secret), `${label} contains a secret: ${text.slice(0, 200)}`).toBe(false);
}

/** Records every event payload and every cache key of the model. */
function observe(model: ChatModel): { payloads: unknown[]; keys: string[] } {
  const payloads: unknown[] = [];
  for (const name of eventNames) model.emitter.on(name, (payload: unknown) => payloads.push(payload));
  const keys: string[] = [];
  const cache = new MemoryCache();
  const get = cache.get.bind(cache);
  cache.get = (key) => {
    keys.push(key);
    return get(key);
  };
  model.cache = cache;
  return { payloads, keys };
}

async function settle(model: ChatModel, mode: CallMode): Promise<unknown> {
  const input = { messages: [{ role: "user" as const, content: "hi" }] };
  try {
    return mode === "create" ? await model.create(input) : await model.createStream(input).final();
  } catch (error) {
    return error;
  }
}

/** A misbehaving gateway: every credential header it got comes back in the body and the response headers. */
function echoCredentials(status: number): Handler {
  return (request, response) => {
    const echoed = credentialHeaders(request.headers);
    response.writeHead(status, { "content-type": "application/json", "x-echo-credentials": echoed });
    response.end(
      JSON.stringify({
        error: {
          message: `Rejected credentials: ${echoed}`,
          type: "invalid_request_error",
          code: "invalid_api_key",
          echoed,
        },
      }),
    );
  };
}

function credentialHeaders(headers: IncomingHttpHeaders): string {
  return ["authorization", "api-key", "x-amz-security-token"]
    .map((name) => `${name}=${String(headers[name] ?? "")}`)
    .join("; ");
}

describe.each(callModes)("secrets through %s", (mode) => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const openAIModels = () => [
    new OpenAIChatModel("gpt-4o-mini", {
      baseURL: `${server.url}/v1`,
      apiKey: openAIKey,
      retry: { maxRetries: 1, initialDelayMs: 1 },
    }),
    new AzureOpenAIChatModel("prod-gpt4o", {
      endpoint: server.url,
      apiKey: azureKey,
      retry: { maxRetries: 1, initialDelayMs: 1 },
    }),
  ];

  describe("OpenAIChatModel and AzureOpenAIChatModel", () => {
    it.each([
      { fault: "a 401 that echoes the key in its body and headers", handler: echoCredentials(401) },
      { fault: "a 500 that echoes the key (retried, then given up)", handler: echoCredentials(500) },
      { fault: "a connection reset", handler: ((_request, response) => response.socket?.destroy()) as Handler },
    ])(
      "should keep the key out of the error and its whole cause chain, events and cache keys on $fault",
      async ({ handler }) => {
        server.handle(handler);
        for (const model of openAIModels()) {
          const seen = observe(model);
          const error = await settle(model, mode);
          expect(error).toBeInstanceOf(Error);
          expect(
            server.requests.at(-1)!.headers["authorization"] ?? server.requests.at(-1)!.headers["api-key"],
          ).toContain("SENTINEL");
          expectNoSecret(`${model.providerId} error`, error);
          expectNoSecret(`${model.providerId} events`, seen.payloads);
          expectNoSecret(`${model.providerId} cache keys`, seen.keys);
        }
      },
    );

    it("should keep the key out of the output, its raw field, the events and the cache key on success", async () => {
      const reply = openAITextReply("fine");
      server.handle((request, response) => {
        const step = request.json?.stream ? reply.stream! : reply.create!;
        response.writeHead(200, { ...step.headers, "x-echo-credentials": credentialHeaders(request.headers) });
        response.end(step.body as string);
      });
      for (const model of openAIModels()) {
        const seen = observe(model);
        const output = await settle(model, mode);
        expect(output).toMatchObject({ text: "fine" });
        expectNoSecret(`${model.providerId} output`, output);
        expectNoSecret(`${model.providerId} events`, seen.payloads);
        expect(seen.keys).toHaveLength(1);
        expectNoSecret(`${model.providerId} cache keys`, seen.keys);
      }
    });
  });

  describe("OllamaChatModel", () => {
    const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`;
    const ollamaModels = () => [
      new OllamaChatModel("llama3.2", {
        host: server.url,
        headers: { Authorization: `Bearer ${ollamaKey}` },
        retry: { maxRetries: 1, initialDelayMs: 1 },
      }),
      new OllamaChatModel("llama3.2", {
        host: server.url.replace("http://", `http://admin:${ollamaPassword}@`),
        retry: { maxRetries: 1, initialDelayMs: 1 },
      }),
    ];
    /** An Ollama (or the proxy before it) that echoes the credentials it got, as its `{"error": …}` body does. */
    const echoToOllama =
      (status: number): Handler =>
      (request, response) => {
        const authorization = String(request.headers["authorization"] ?? "");
        const decoded = authorization.startsWith("Basic ")
          ? Buffer.from(authorization.slice(6), "base64").toString("utf8")
          : "";
        response.writeHead(status, { "content-type": "application/json", "x-echo-credentials": authorization });
        response.end(JSON.stringify({ error: `unauthorized: ${authorization} ${decoded}` }));
      };

    it.each([
      { fault: "a 401 that echoes the key", status: 401 },
      { fault: "a 500 that echoes the key (retried, then given up)", status: 500 },
    ])(
      "should keep the key and the host's password out of the error and its whole cause chain and events on $fault",
      async ({ status }) => {
        server.handle(echoToOllama(status));
        for (const model of ollamaModels()) {
          const seen = observe(model);
          const error = await settle(model, mode);
          expect(error).toBeInstanceOf(Error);
          expect([`Bearer ${ollamaKey}`, basic(ollamaPassword)]).toContain(
            server.requests.at(-1)!.headers["authorization"],
          );
          expectNoSecret("ollama error", error);
          expectNoSecret("ollama events", seen.payloads);
          expectNoSecret("ollama cache keys", seen.keys);
        }
      },
    );

    it("should keep OLLAMA_API_KEY, which the SDK sends to ollama.com, out of the error", async () => {
      vi.stubEnv("OLLAMA_API_KEY", ollamaKey);
      const echoing = vi.fn((_url: string | URL | Request, init?: RequestInit) => {
        const authorization = new Headers(init?.headers).get("authorization") ?? "";
        return Promise.resolve(
          new Response(JSON.stringify({ error: `unauthorized: ${authorization}` }), {
            status: 401,
            headers: { "content-type": "application/json" },
          }),
        );
      });
      try {
        const model = new OllamaChatModel("gpt-oss:120b", {
          host: "https://ollama.com",
          fetch: echoing as typeof fetch,
          retry: { maxRetries: 0 },
        });
        const error = await settle(model, mode);
        expect(echoing).toHaveBeenCalled();
        expect(new Headers(echoing.mock.calls[0]![1]?.headers).get("authorization")).toBe(`Bearer ${ollamaKey}`);
        expectNoSecret("ollama error", error);
      } finally {
        vi.unstubAllEnvs();
      }
    });
  });

  describe("BedrockChatModel", () => {
    const bedrock = useBedrockLoopback();
    const credentials = { accessKeyId: "AKIDFAULTS", secretAccessKey: awsSecret, sessionToken: awsSessionToken };

    it.each([
      {
        fault: "an UnrecognizedClientException that echoes the session token",
        status: 403,
        type: "UnrecognizedClientException",
      },
      {
        fault: "a ThrottlingException that echoes the session token (retried, then given up)",
        status: 429,
        type: "ThrottlingException",
      },
    ])(
      "should keep the AWS secret and session token out of the error chain and events on $fault",
      async ({ status, type }) => {
        bedrock.server.handle((request, response) => {
          const echoed = credentialHeaders(request.headers);
          response.writeHead(status, {
            "content-type": "application/json",
            "x-amzn-errortype": type,
            "x-echo-credentials": echoed,
          });
          response.end(JSON.stringify({ message: `The security token included in the request is invalid: ${echoed}` }));
        });
        const model = bedrock.model("us.amazon.nova-micro-v1:0", {
          credentials,
          retry: { maxRetries: 1, initialDelayMs: 1 },
        });
        const seen = observe(model);
        const error = await settle(model, mode);
        expect(error).toBeInstanceOf(Error);
        expect(bedrock.server.requests[0]!.headers["x-amz-security-token"]).toBe(awsSessionToken);
        expectNoSecret("bedrock error", error);
        expectNoSecret("bedrock events", seen.payloads);
      },
    );

    it.each([
      {
        source: "the default credential chain (AWS_* variables)",
        env: { AWS_ACCESS_KEY_ID: "AKIDFAULTS", AWS_SECRET_ACCESS_KEY: awsSecret, AWS_SESSION_TOKEN: awsSessionToken },
        sent: (headers: IncomingHttpHeaders) => headers["x-amz-security-token"],
        secret: awsSessionToken,
      },
      {
        source: "a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK)",
        env: { AWS_BEARER_TOKEN_BEDROCK: bedrockAPIKey, AWS_AUTH_SCHEME_PREFERENCE: "httpBearerAuth" },
        sent: (headers: IncomingHttpHeaders) => headers["authorization"],
        secret: `Bearer ${bedrockAPIKey}`,
      },
    ])("should keep credentials from $source out of the error chain and events", async ({ env, sent, secret }) => {
      for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
      try {
        bedrock.server.handle((request, response) => {
          const echoed = credentialHeaders(request.headers);
          response.writeHead(403, {
            "content-type": "application/json",
            "x-amzn-errortype": "UnrecognizedClientException",
            "x-echo-credentials": echoed,
          });
          response.end(JSON.stringify({ message: `The security token included in the request is invalid: ${echoed}` }));
        });
        const model = bedrock.model("us.amazon.nova-micro-v1:0", { credentials: undefined, retry: { maxRetries: 0 } });
        const seen = observe(model);
        const error = await settle(model, mode);
        expect(error).toBeInstanceOf(Error);
        expect(sent(bedrock.server.requests.at(-1)!.headers)).toBe(secret);
        expectNoSecret("bedrock error", error);
        expectNoSecret("bedrock events", seen.payloads);
      } finally {
        vi.unstubAllEnvs();
      }
    });

    it("should keep the AWS secret out of the output, its raw field and the cache key on success", async () => {
      const reply = replyOf({
        output: { message: { role: "assistant", content: [{ text: "fine" }] } },
        stopReason: "end_turn",
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      });
      bedrock.server.handle((request, response) => {
        response.writeHead(200, {
          "content-type": mode === "create" ? "application/json" : "application/vnd.amazon.eventstream",
          "x-echo-credentials": credentialHeaders(request.headers),
        });
        response.end(mode === "create" ? JSON.stringify(reply.converse) : Buffer.from(encodeEvents(reply.events)));
      });
      const model = bedrock.model("us.amazon.nova-micro-v1:0", { credentials });
      const seen = observe(model);
      const output = await settle(model, mode);
      expect(output).toMatchObject({ text: "fine" });
      expectNoSecret("bedrock output", output);
      expectNoSecret("bedrock events", seen.payloads);
      expectNoSecret("bedrock cache keys", seen.keys);
    });
  });
});
