import { ChatModelError } from "../../core/errors/chat-model-error.js";

const marker = "keelson.error.CassetteError";
const symbol = Symbol.for(marker);

/**
 * A cassette that cannot be replayed: not JSON (a truncated file), or not in the shape
 * `RecordingChatModel` writes (a field edited by hand, a wrong type). It names the file (`source`)
 * and the field (`field`, a path such as `interactions[2].output.toolCalls`), so a replay never
 * plays a wrong answer or fails with a bare SyntaxError or TypeError.
 */
export class CassetteError extends ChatModelError {
  private readonly [symbol] = true;
  /** The cassette's file path, or "the cassette" for one passed as an object. */
  readonly source: string;
  /** Where in the cassette the problem is (`interactions[0].chunks[3].text`); "" for the file as a whole. */
  readonly field: string;

  constructor(source: string, field: string, problem: string, options: { cause?: unknown } = {}) {
    super(
      `${source}${field === "" ? "" : ` (${field})`}: ${problem}. The cassette is truncated or was edited: ` +
        "restore it, or record it again with RecordingChatModel.",
      options,
    );
    this.name = "CassetteError";
    this.source = source;
    this.field = field;
  }

  static override isInstance(error: unknown): error is CassetteError {
    return ChatModelError.hasMarker(error, marker);
  }
}
