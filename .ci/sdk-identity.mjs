// Run from an app that installed the packed keelson and the SDKs (node --input-type=module < this):
// a 401/403 from a loopback server through each adapter (OpenAI, Anthropic, Bedrock, Gemini), from the ESM build (with the SDKs the app
// imports) and from the CJS build (with the SDKs the app requires). The ProviderError's `cause` must
// be an instance of the error class the app itself got from the SDK: keelson loads the same copy.
import process from "node:process";
import { createServer } from "node:http";
import { createServer as createHttp2Server } from "node:http2";
import { createRequire } from "node:module";

const send = (response, status, headers, body) => {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
};
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () =>
    request.url?.startsWith("/anthropic/")
      ? send(
          response,
          401,
          {},
          { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
        )
      : request.url?.startsWith("/google/")
        ? send(
            response,
            403,
            {},
            {
              error: { code: 403, message: "Method doesn't allow unregistered callers.", status: "PERMISSION_DENIED" },
            },
          )
        : send(response, 401, {}, { error: { message: "Incorrect API key provided.", code: "invalid_api_key" } }),
  );
});
// The AWS SDK speaks cleartext HTTP/2 to a custom endpoint.
const http2Server = createHttp2Server((request, response) => {
  request.resume();
  request.on("end", () =>
    send(response, 403, { "x-amzn-errortype": "AccessDeniedException" }, { message: "The security token is invalid." }),
  );
});
const sessions = new Set();
http2Server.on("session", (session) => sessions.add(session));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
await new Promise((resolve) => http2Server.listen(0, "127.0.0.1", resolve));
const host = `http://127.0.0.1:${server.address().port}`;
const http2Host = `http://127.0.0.1:${http2Server.address().port}`;
const input = { messages: [{ role: "user", content: "ping" }], maxRetries: 0 };
const require = createRequire(`${process.cwd()}/package.json`);

async function causeOf(model) {
  try {
    await model.create(input);
  } catch (error) {
    if (error?.name !== "ProviderError") throw new Error(`expected a ProviderError, got ${error}`);
    return error.cause;
  }
  throw new Error("the call answered; a 401 was expected");
}

const formats = {
  ESM: (name) => import(name),
  CJS: async (name) => require(name),
};
try {
  for (const [format, load] of Object.entries(formats)) {
    const { default: OpenAI } = await load("openai");
    const { OpenAIChatModel } = await load("keelson/openai");
    const openai = new OpenAIChatModel("gpt-4o", { apiKey: "sk-test-not-a-key", baseURL: `${host}/v1` });
    const { default: Anthropic } = await load("@anthropic-ai/sdk");
    const { AnthropicChatModel } = await load("keelson/anthropic");
    const anthropic = new AnthropicChatModel("claude-sonnet-4-5", {
      apiKey: "sk-ant-test",
      baseURL: `${host}/anthropic`,
    });
    const { BedrockRuntimeServiceException } = await load("@aws-sdk/client-bedrock-runtime");
    const { BedrockChatModel } = await load("keelson/bedrock");
    const bedrock = new BedrockChatModel("anthropic.claude-3-5-sonnet-20240620-v1:0", {
      region: "us-east-1",
      endpoint: http2Host,
      credentials: { accessKeyId: "AKIATESTTESTTEST", secretAccessKey: "not-a-secret-key" },
    });
    const { ApiError: GoogleApiError } = await load("@google/genai");
    const { GoogleChatModel } = await load("keelson/google");
    const google = new GoogleChatModel("gemini-2.5-flash", {
      apiKey: "AIza-test-not-a-key",
      baseURL: `${host}/google`,
    });
    for (const [name, model, ErrorClass] of [
      ["openai", openai, OpenAI.APIError],
      ["@anthropic-ai/sdk", anthropic, Anthropic.APIError],
      ["@aws-sdk/client-bedrock-runtime", bedrock, BedrockRuntimeServiceException],
      ["@google/genai", google, GoogleApiError],
    ]) {
      const cause = await causeOf(model);
      if (!(cause instanceof ErrorClass)) {
        throw new Error(
          `${format}: the cause (${cause?.constructor?.name}) is not an instance of ${name}'s ${ErrorClass.name}: two copies of ${name}`,
        );
      }
      process.stdout.write(`${format}: error.cause instanceof ${name}'s ${ErrorClass.name}: ok\n`);
    }
  }
} finally {
  server.close();
  for (const session of sessions) session.destroy();
  http2Server.close();
}
