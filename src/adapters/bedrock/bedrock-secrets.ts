import type { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { noteIssuedCredential } from "../../internal/issued-credentials.js";

/**
 * The environment variables the AWS SDK signs Bedrock requests with when the model was given no
 * static credentials: the default chain's keys and a Bedrock API key (a bearer token).
 */
const credentialVariables = ["AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK"] as const;

/**
 * The secrets to keep out of an error: the model's static credentials, and those the SDK reads from
 * the environment, read now as the SDK reads them per request.
 */
export function bedrockSecrets(staticSecrets: readonly string[]): string[] {
  const secrets = [...staticSecrets];
  for (const name of credentialVariables) {
    const value = process.env[name];
    if (value) secrets.push(value);
  }
  return secrets;
}

/**
 * Notes, in `issued`, each identity the client's credential provider resolves (the default chain or
 * a caller's provider function): the secret key and session token the SDK signs with, known only once
 * resolved. The SDK reads `config.credentials` per request, so the wrapper sees every identity used.
 */
export function noteResolvedCredentials(client: BedrockRuntimeClient, issued: string[]): void {
  const config = client.config as { credentials?: unknown };
  const resolve = config.credentials;
  if (typeof resolve !== "function") return;
  config.credentials = async (...args: unknown[]) => {
    const identity = (await (resolve as (...args: unknown[]) => Promise<unknown>)(...args)) as
      { secretAccessKey?: string; sessionToken?: string } | undefined;
    noteIssuedCredential(issued, identity?.secretAccessKey);
    noteIssuedCredential(issued, identity?.sessionToken);
    return identity;
  };
}
