import type { IncomingHttpHeaders } from "node:http";
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AzureOpenAIChatModel } from "../../src/adapters/azure-openai/index.js";
import { OllamaChatModel } from "../../src/adapters/ollama/index.js";
import { OpenAIChatModel } from "../../src/adapters/openai/index.js";
import { ChatModelError } from "../../src/index.js";
import type { ChatModel } from "../../src/index.js";
import { useBedrockLoopback } from "../support/bedrock-loopback.js";
import type { Handler, LoopbackServer } from "../support/loopback-server.js";
import { startLoopbackServer } from "../support/loopback-server.js";
import { callModes, type CallMode } from "../support/run-modes.js";

const openAIKey = "sk-HOSTILE-openai-0c9e71d2";
const azureKey = "HOSTILE-azure-key-51aa03";
const entraToken = "HOSTILE-entra-token-e4c2b8f0";
const ollamaKey = "HOSTILE-ollama-key-9f3b21";
const awsSecret = "HOSTILE-aws-secret-2d7e";
const awsSessionToken = "HOSTILE-aws-session-token-6c1a";
const secrets = [openAIKey, azureKey, entraToken, ollamaKey, awsSecret, awsSessionToken];
/** Each secret's first 12 characters: what a cut before redaction would leave behind. */
const prefixes = secrets.map((secret) => secret.slice(0, 12));

/** Every string reachable from `value`, however deep (own properties, hidden ones too, Headers, Maps, causes). */
function reachableStrings(value: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      out.push(next);
      continue;
    }
    if (next === null || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    if (next instanceof Headers || next instanceof Map)
      for (const entry of next as Iterable<unknown>) pending.push(entry);
    for (const key of Reflect.ownKeys(next)) {
      const descriptor = Object.getOwnPropertyDescriptor(next, key);
      if (descriptor && "value" in descriptor) pending.push(descriptor.value);
    }
    if (next instanceof Error) pending.push(next.message, next.stack, (next as { cause?: unknown }).cause);
  }
  return out;
}

function expectNoSecret(label: string, value: unknown): void {
  const texts = [...reachableStrings(value), inspect(value, { depth: 4, showHidden: true })];
  for (const text of texts)
    for (const prefix of prefixes)
      expect(
        text.includes(prefix),
        `${label} holds a secret's start: …${text.slice(text.indexOf(prefix) - 40, text.indexOf(prefix) + 40)}…`,
      ).toBe(false);
}

async function settle(model: ChatModel, mode: CallMode): Promise<unknown> {
  const input = { messages: [{ role: "user" as const, content: "hi" }] };
  try {
    return mode === "create" ? await model.create(input) : await model.createStream(input).final();
  } catch (error) {
    return error;
  }
}

function credentialsIn(headers: IncomingHttpHeaders): string {
  return ["authorization", "api-key", "x-amz-security-token"].map((name) => String(headers[name] ?? "")).join(" ");
}

/** `{"a":[1,{"a":[… {"leaked": …} …]}]}` as JSON text, `depth` levels down (JSON.stringify would overflow its stack). */
function nested(depth: number, leaked: string): string {
  let body = JSON.stringify({ leaked });
  for (let level = 0; level < depth; level++)
    body = level % 2 === 0 ? `{"level":${level},"a":${body}}` : `[${level},${body}]`;
  return body;
}

const depths = [11, 200, 5_000];

describe.each(callModes)("secrets against hostile servers, through %s", (mode) => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer();
  });
  afterEach(() => server.close());
  const once = { retry: { maxRetries: 0 } } as const;

  const openAIModels = (): [string, ChatModel][] => [
    [
      "OpenAIChatModel",
      new OpenAIChatModel("gpt-4o-mini", { baseURL: `${server.url}/v1`, apiKey: openAIKey, ...once }),
    ],
    [
      "AzureOpenAIChatModel (key)",
      new AzureOpenAIChatModel("prod", { endpoint: server.url, apiKey: azureKey, ...once }),
    ],
    [
      "AzureOpenAIChatModel (Entra ID)",
      new AzureOpenAIChatModel("prod", {
        endpoint: server.url,
        azureADTokenProvider: () => Promise.resolve(entraToken),
        ...once,
      }),
    ],
    [
      "AzureOpenAIChatModel v1 (Entra ID)",
      new AzureOpenAIChatModel("prod", {
        endpoint: `${server.url}/openai/v1`,
        azureADTokenProvider: () => Promise.resolve(entraToken),
        ...once,
      }),
    ],
  ];

  /** Answers `status` with the credentials it got nested `depth` levels deep inside OpenAI's error envelope. */
  const echoNested =
    (status: number, depth: number): Handler =>
    (request, response) => {
      response.writeHead(status, { "content-type": "application/json" });
      const detail = nested(depth, credentialsIn(request.headers));
      response.end(`{"error":{"message":"rejected","code":"invalid_api_key","detail":${detail}}}`);
    };

  describe("OpenAI and Azure", () => {
    it.each(depths)("should keep every credential out of an error body that nests it %i levels deep", async (depth) => {
      server.handle(echoNested(401, depth));
      for (const [name, model] of openAIModels()) {
        const error = await settle(model, mode);
        expect(ChatModelError.isInstance(error), name).toBe(true);
        expect(credentialsIn(server.requests.at(-1)!.headers)).toMatch(/HOSTILE/);
        expectNoSecret(name, error);
      }
    });

    it("should keep a key out of a 200 body that is not a completion, where the message quotes its start", async () => {
      for (const [name, model] of openAIModels()) {
        server.handle((request, response) => {
          // The credential starts 40 characters in: a 60-character cut before redaction kept its first 20.
          response.writeHead(200, { "content-type": "text/plain" });
          response.end(`${"x".repeat(40)}${credentialsIn(request.headers).trim()} and more`);
        });
        const error = await settle(model, mode);
        expect(ChatModelError.isInstance(error), name).toBe(true);
        expectNoSecret(name, error);
      }
    });

    it("should quote at most a few KB of a 16 MB error page", async () => {
      const page = `<html>${"<p>upstream failure</p>".repeat(700_000)}</html>`;
      server.handle((_request, response) => {
        response.writeHead(502, { "content-type": "text/html" });
        response.end(page);
      });
      for (const [name, model] of openAIModels()) {
        const error = (await settle(model, mode)) as Error;
        expect(ChatModelError.isInstance(error), name).toBe(true);
        expect(error.message.length, name).toBeLessThan(3_000);
        expect(error.message).toMatch(/more characters/);
      }
    });
  });

  describe("Ollama", () => {
    const model = () =>
      new OllamaChatModel("llama3.2", { host: server.url, headers: { Authorization: `Bearer ${ollamaKey}` }, ...once });

    it.each(depths)("should keep the key out of an error body that nests it %i levels deep", async (depth) => {
      server.handle((request, response) => {
        response.writeHead(401, { "content-type": "application/json" });
        response.end(`{"error":"unauthorized","detail":${nested(depth, credentialsIn(request.headers))}}`);
      });
      const error = await settle(model(), mode);
      expect(ChatModelError.isInstance(error)).toBe(true);
      expectNoSecret("ollama", error);
    });

    it("should keep the key out of a long text error whose cut falls inside it, and quote a few KB at most", async () => {
      server.handle((request, response) => {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end(`${"y".repeat(1_990)}${credentialsIn(request.headers)}${"z".repeat(16_000_000)}`);
      });
      const error = (await settle(model(), mode)) as Error;
      expect(ChatModelError.isInstance(error)).toBe(true);
      expect(error.message.length).toBeLessThan(3_000);
      expectNoSecret("ollama", error);
    });
  });

  describe("Bedrock", () => {
    const bedrock = useBedrockLoopback();
    const fromProvider = () =>
      bedrock.model("us.amazon.nova-micro-v1:0", {
        credentials: () =>
          Promise.resolve({ accessKeyId: "AKIDHOSTILE", secretAccessKey: awsSecret, sessionToken: awsSessionToken }),
        ...once,
      });

    it.each(depths)(
      "should keep a credential provider's session token out of an error that nests it %i levels deep",
      async (depth) => {
        bedrock.server.handle((request, response) => {
          response.writeHead(403, { "content-type": "application/json", "x-amzn-errortype": "AccessDeniedException" });
          const message = JSON.stringify(`denied ${credentialsIn(request.headers)}`);
          response.end(`{"message":${message},"detail":${nested(depth, credentialsIn(request.headers))}}`);
        });
        const error = await settle(fromProvider(), mode);
        expect(ChatModelError.isInstance(error)).toBe(true);
        expect(bedrock.server.requests.at(-1)!.headers["x-amz-security-token"]).toBe(awsSessionToken);
        expectNoSecret("bedrock", error);
      },
    );

    it("should quote at most a few KB of a 16 MB error message", async () => {
      bedrock.server.handle((_request, response) => {
        response.writeHead(400, { "content-type": "application/json", "x-amzn-errortype": "ValidationException" });
        response.end(JSON.stringify({ message: "w".repeat(16_000_000) }));
      });
      const error = (await settle(fromProvider(), mode)) as Error;
      expect(ChatModelError.isInstance(error)).toBe(true);
      expect(error.message.length).toBeLessThan(3_000);
    });
  });
});
