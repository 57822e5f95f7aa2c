import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ParameterName } from "../../core/parameters/parameter-name.js";
import type { ChatModelChunk } from "../../core/stream/chat-model-chunk.js";
import type { ProviderOutput } from "../../core/output.js";
import type { ChatModelParameters, ProviderInput } from "../../core/input.js";
import type { ProviderErrorReason, RejectedParameter } from "../../core/errors/provider-error.js";
import type { ToolChoiceMode } from "../../core/tool-choice/tool-choice-mode.js";
import { CassetteError } from "./cassette-error.js";
import { checkCassette } from "./check-cassette.js";

/** One exchange with the provider: what it was sent, and its answer (whole, as chunks, or an error). */
export interface CassetteInteraction {
  input: Omit<ProviderInput, "signal">;
  output?: ProviderOutput;
  chunks?: ChatModelChunk[];
  error?: {
    message: string;
    name: string;
    statusCode?: number;
    code?: string;
    /** What the pipeline reads from a ProviderError, so a replay retries and learns as the recording did. */
    reason?: ProviderErrorReason;
    isRetryable?: boolean;
    rejectedParameter?: RejectedParameter;
  };
}

/**
 * The recorded model's settings that shape its provider inputs and what it accepts (default
 * parameters, parallel calls, repair), so a replay sends and accepts the same.
 */
export interface CassetteSettings {
  parameters?: ChatModelParameters;
  allowParallelToolCalls: boolean;
  ignoreParallelToolCalls: boolean;
  fixInvalidToolCalls: boolean;
  recoverTextToolCallsOnAuto: boolean;
  retryOnEmptyResponse: boolean;
  toolCallFallbackViaResponseFormat: boolean;
  /** Absent in cassettes written before keelson recorded it: false. */
  strictParameters?: boolean;
  maxRepairAttempts: number;
  maxRetries: number;
}

/** A recorded conversation with one model: its profile, so a replay takes the same ladder rungs. */
export interface Cassette {
  version: 1;
  providerId: string;
  modelId: string;
  profile: {
    toolChoiceSupport: ToolChoiceMode[];
    supportsToolCalling: boolean;
    supportsStructuredOutput: boolean;
    supportsTopLevelUnion: boolean;
    /** Absent in cassettes written before keelson recorded it: false. */
    supportsResponseFormatWithTools?: boolean;
    strictResponseFormat: boolean;
    /** Absent in cassettes written before keelson recorded it: none. */
    unsupportedParameters?: ParameterName[];
  };
  /** Absent in cassettes written before keelson recorded settings: the defaults apply. */
  settings?: CassetteSettings;
  interactions: CassetteInteraction[];
}

/**
 * The cassette at `path` (a file path, not a URL), as RecordingChatModel wrote it; throws when there
 * is none yet, and a CassetteError naming the file and the field when it is not JSON or not a cassette.
 */
export function readCassette(path: string): Cassette {
  if (!existsSync(path)) {
    throw new Error(
      `No cassette at ${path}: record one first with RecordingChatModel (run the test once against a real provider).`,
    );
  }
  let text: string;
  let parsed: unknown;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new CassetteError(path, "", `could not be read (${(error as Error).message})`, { cause: error });
  }
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CassetteError(path, "", `is not valid JSON (${(error as Error).message}; ${text.length} characters)`, {
      cause: error,
    });
  }
  return checkCassette<Cassette>(parsed, path);
}

export function writeCassette(path: string, cassette: Cassette, secrets: readonly string[] = []): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(redactSecrets(cassette, secrets), null, 2)}\n`);
}

/** Shapes of credentials that must never be written to a cassette, whatever field they hide in. */
const secretPatterns: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g, // OpenAI keys
  /\b(?:AKIA|ASIA)[A-Z0-9]{12,}/g, // AWS access key ids
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+/g, // JWTs (Entra ID access tokens)
  // A key name, then `:` or `=` (quoted or not): `"api_key": "…"`, `Authorization: …`; not prose ("the Authorization header").
  /\b(?:api[-_]?key|authorization|x-amz-security-token|aws_secret_access_key)(["'\s]*[:=]["'\s]*(?:(?:Basic|Bearer|Token)\s+)?)[^\s"',}]{6,}/gi,
];

/** Member names whose string value is a credential (`{ "api-key": "…" }`, a header object). */
const credentialMember =
  /^(?:x-)?(?:api[-_]?key|authorization|x-amz-security-token|aws_secret_access_key|secret_?access_?key|session_?token)$/i;

/** A copy with every string scrubbed of credential-shaped text. */
export function redactSecrets<T>(value: T, extraSecrets: readonly string[] = []): T {
  return JSON.parse(JSON.stringify(value), (key, member: unknown) => {
    if (typeof member !== "string") return member;
    // The value of a credential member, kept only its scheme (`Bearer [REDACTED]`).
    if (credentialMember.test(key) && member.length >= 6)
      return member.replace(/^((?:Basic|Bearer|Token)\s+)?.*$/is, "$1[REDACTED]");
    let text = member;
    for (const secret of extraSecrets) if (secret) text = text.split(secret).join("[REDACTED]");
    for (const pattern of secretPatterns) {
      text = text.replace(pattern, (match, separator?: string) =>
        typeof separator === "string" && !match.startsWith("sk-")
          ? match.slice(0, match.indexOf(separator) + separator.length) + "[REDACTED]"
          : "[REDACTED]",
      );
    }
    return text;
  }) as T;
}
