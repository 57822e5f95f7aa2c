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
