import type { ChatModelOptions } from "../../core/model/chat-model-options.js";

/**
 * An `Ollama` client of the `ollama` package, seen structurally: keelson's types never import an
 * SDK, so they compile where it is not installed (`skipLibCheck: false`).
 */
export interface OllamaClientLike {
  chat(...args: never[]): unknown;
}

export interface OllamaChatModelOptions extends ChatModelOptions {
  /**
   * The Ollama server, in any form the `ollama` SDK takes (`http://gpu-box:11434`, `gpu-box`, `:11434`)
   * or the `ollama` CLI reads from OLLAMA_HOST (quotes and spaces around it, `::1` without brackets).
   * @default process.env.OLLAMA_HOST, else "http://127.0.0.1:11434"
   */
  host?: string | undefined;
  /**
   * A ready `Ollama` client; `host`, `headers` and `fetch` are then not used. With your own client an
   * aborted non-streamed call still settles at once, but its HTTP request runs on to the end (the SDK
   * takes no per-request signal): prefer `host`/`headers`/`fetch` so that aborts cancel requests.
   * @default clients built from `host`, `headers` and `fetch`: one per model for plain calls, a light one per streamed or abortable request
   */
  client?: OllamaClientLike | undefined;
  /** Headers sent with every request (for a proxy or ollama.com: `Authorization`); a `User-Agent`, `Accept` or `Content-Type` here replaces the SDK's. @default none */
  headers?: Record<string, string> | undefined;
  /** The fetch every request goes through (its bodies capped at `maxResponseBytes`, a fetch of your own too). @default `globalThis.fetch` (read at each request), with redirects kept to http(s) and credentials kept to their origin */
  fetch?: typeof fetch | undefined;
  /** How long Ollama keeps the model loaded after a request (`keep_alive`: seconds or "5m"). @default the server's */
  keepAlive?: string | number | undefined;
}
