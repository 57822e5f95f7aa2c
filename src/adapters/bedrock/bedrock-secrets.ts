import type { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { issuedCredentials, noteIssuedCredential } from "../../internal/issued-credentials.js";

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

/** The clients whose credential provider is already watched (a client shared by several models is wrapped once). */
const watched = new WeakSet<object>();

/**
 * The secret keys and session tokens a client signs with, noted as its credential provider resolves
 * them (the default chain, static credentials, or a provider function): known only once resolved.
 * The SDK reads `config.credentials` per request, so a wrapper there sees every identity used,
 * and only those (no extra call to the provider). The same for a client keelson built and one a
 * caller passed as `client`: the wrapper returns each identity unchanged, and a client shared by
 * several models is wrapped once and has one list.
 */
export function watchResolvedCredentials(client: BedrockRuntimeClient): string[] {
  const issued = issuedCredentials(client);
  if (watched.has(client)) return issued;
  watched.add(client);
  const config = client.config as { credentials?: unknown };
  const resolve = config.credentials;
  if (typeof resolve !== "function") return issued;
  config.credentials = async (...args: unknown[]) => {
    const identity = (await (resolve as (...args: unknown[]) => Promise<unknown>)(...args)) as
      { secretAccessKey?: string; sessionToken?: string } | undefined;
    noteIssuedCredential(issued, identity?.secretAccessKey);
    noteIssuedCredential(issued, identity?.sessionToken);
    return identity;
  };
  return issued;
}
