import { ChatModelError } from "./chat-model-error.js";

const marker = "keelson.error.MissingDependencyError";
const symbol = Symbol.for(marker);

export interface MissingDependencyErrorOptions {
  packageName: string;
  /** What the package is needed for ("the OpenAI adapter"). */
  purpose: string;
  cause?: unknown;
}

/** An optional package (a provider SDK) is not installed. The message names the install command. */
export class MissingDependencyError extends ChatModelError {
  private readonly [symbol] = true;
  readonly packageName: string;

  constructor(options: MissingDependencyErrorOptions) {
    super(
      `The package '${options.packageName}' is needed for ${options.purpose} but is not installed. ` +
        `Run: npm install ${options.packageName}`,
      { cause: options.cause },
    );
    this.name = "MissingDependencyError";
    this.packageName = options.packageName;
  }

  static override isInstance(error: unknown): error is MissingDependencyError {
    return ChatModelError.hasMarker(error, marker);
  }
}
