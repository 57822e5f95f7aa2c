import type { ChatModelOptions } from "../../core/model/chat-model-options.js";

/**
 * A `GoogleGenAI` client of the `@google/genai` package, seen structurally: keelson's types never
 * import an SDK, so they compile where it is not installed.
 */
export interface GoogleClientLike {
  models: {
    generateContent(...args: never[]): unknown;
    generateContentStream(...args: never[]): unknown;
  };
  /** Whether the client talks to Vertex AI. */
  readonly vertexai?: boolean;
}

export interface GoogleChatModelOptions extends ChatModelOptions {
  /**
   * The Gemini API key (not used with `vertexai: true`, which authenticates with Google Cloud's
   * application default credentials).
   * @default process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY
   */
  apiKey?: string;
  /**
   * Send requests to Vertex AI rather than the Gemini Developer API.
   * @default process.env.GOOGLE_GENAI_USE_VERTEXAI === "true"
   */
  vertexai?: boolean;
  /** The Google Cloud project (Vertex AI). @default process.env.GOOGLE_CLOUD_PROJECT */
  project?: string;
  /** The Google Cloud location (Vertex AI). @default process.env.GOOGLE_CLOUD_LOCATION */
  location?: string;
  /**
   * Where requests go instead of Google's endpoint (a proxy, a gateway, a test server).
   * @default the SDK's endpoint for the API chosen
   */
  baseURL?: string;
  /** Extra headers sent with every request. @default none */
  headers?: Record<string, string>;
  /**
   * A ready `@google/genai` `GoogleGenAI` client, used as it is (`apiKey`, `vertexai`, `project`,
   * `location`, `baseURL` and `headers` are then ignored). Its own retries are turned off per
   * request: keelson owns the retries.
   * @default a client built from the options above, with retries off
   */
  client?: GoogleClientLike;
}
