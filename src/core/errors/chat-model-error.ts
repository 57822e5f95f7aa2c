const marker = "keelson.error";
const symbol = Symbol.for(marker);

export interface ChatModelErrorOptions {
  /** The provider id of the model that raised it, when known. */
  providerId?: string | undefined;
  /** The model id, when known. */
  modelId?: string | undefined;
  cause?: unknown | undefined;
}

/**
 * The root of every error keelson raises. `isInstance` checks a `Symbol.for` marker, so it works
 * across duplicated copies of the package (ESM and CJS, or two versions in one tree).
 */
export class ChatModelError extends Error {
  private readonly [symbol] = true;
  readonly providerId: string | undefined;
  readonly modelId: string | undefined;

  constructor(message: string, options: ChatModelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ChatModelError";
    this.providerId = options.providerId;
    this.modelId = options.modelId;
  }

  static isInstance(error: unknown): error is ChatModelError {
    return ChatModelError.hasMarker(error, marker);
  }

  protected static hasMarker(error: unknown, markerName: string): boolean {
    return (
      error !== null && typeof error === "object" && (error as Record<symbol, unknown>)[Symbol.for(markerName)] === true
    );
  }
}

/** "openai gpt-4o" — how an error message names where it came from. */
export function describeModel(options: ChatModelErrorOptions): string {
  return [options.providerId, options.modelId].filter(Boolean).join(" ") || "the model";
}
