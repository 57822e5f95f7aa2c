/**
 * keelson's provider ids whose OpenTelemetry GenAI name differs: the conventions' well-known
 * `gen_ai.provider.name` values, which backends key their GenAI views on.
 */
const conventionNames: Readonly<Record<string, string>> = {
  "azure-openai": "azure.ai.openai",
  bedrock: "aws.bedrock",
};

/** The `gen_ai.provider.name` of a model's provider: the conventions' name where they have one, else keelson's id. */
export function genAIProviderName(providerId: string): string {
  return Object.hasOwn(conventionNames, providerId) ? conventionNames[providerId]! : providerId;
}
