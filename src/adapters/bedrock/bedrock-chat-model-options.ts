import type { ChatModelOptions } from "../../core/model/chat-model-options.js";

/**
 * A `BedrockRuntimeClient` of `@aws-sdk/client-bedrock-runtime`, seen structurally: keelson's types
 * never import an SDK, so they compile where it is not installed (`skipLibCheck: false`).
 */
export interface BedrockClientLike {
  send(...args: never[]): unknown;
}

/** AWS credentials as the SDK takes them: static ones, or a function that resolves them. */
export type BedrockCredentials = BedrockStaticCredentials | (() => Promise<BedrockStaticCredentials>);

/** Static AWS credentials (an access key, optionally with a session token). */
export interface BedrockStaticCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly expiration?: Date;
}

export interface BedrockChatModelOptions extends ChatModelOptions {
  /** The AWS region. @default the AWS default chain (`AWS_REGION`, the shared config file) */
  region?: string | undefined;
  /** A custom endpoint URL (a VPC endpoint, a proxy, a local test server). @default the regional Bedrock runtime endpoint */
  endpoint?: string | undefined;
  /** Static credentials or a credential provider. @default the AWS default credential chain */
  credentials?: BedrockCredentials | undefined;
  /**
   * A ready client. `region`, `endpoint` and `credentials` are then ignored, and the client keeps its
   * own retry settings: construct it with `maxAttempts: 1` so that keelson is the only one retrying.
   * @default a `BedrockRuntimeClient` built from the options above, with `maxAttempts: 1` and no
   * HTTP/2 session idle timeout (the SDK's 5 minutes would end a long call before its `timeout`)
   */
  client?: BedrockClientLike | undefined;
}
