import type { ChatModelOutput } from "../core/output.js";
import type { ChatModelChunk } from "../core/stream/chat-model-chunk.js";
import type { ChatModelStream } from "../core/stream/chat-model-stream.js";
import type { MemberTurn } from "./member-turn.js";

/** A member's stream once its first chunk (or its end) has arrived. */
interface OpenedStream {
  stream: ChatModelStream;
  iterator: AsyncIterator<ChatModelChunk>;
  first: IteratorResult<ChatModelChunk> | undefined;
  turn: MemberTurn;
}

type RunCall = (open: (turn: MemberTurn) => Promise<OpenedStream>) => Promise<OpenedStream>;

/**
 * The chunks of a router's stream: the members' streams are opened in turn until one delivers its
 * first chunk (a member that fails before it is passed over like a failed `create`); from then on
 * that member's stream is the call's, its failures included.
 */
export class FallbackStream implements AsyncIterator<ChatModelChunk, ChatModelOutput> {
  readonly #runCall: RunCall;
  #opened: OpenedStream | undefined;

  constructor(runCall: RunCall) {
    this.#runCall = runCall;
  }

  async next(): Promise<IteratorResult<ChatModelChunk, ChatModelOutput>> {
    const opened = (this.#opened ??= await this.#runCall(openMember));
    let result = opened.first;
    opened.first = undefined;
    result ??= await opened.iterator.next();
    if (!result.done) return result;
    return { done: true, value: await opened.stream.final() };
  }

  async return(): Promise<IteratorResult<ChatModelChunk, ChatModelOutput>> {
    await this.#opened?.iterator.return?.();
    return { done: true, value: undefined as never };
  }

  /** The call has ended (with `output`, or `error`): the answering member's events stop, its health is recorded. */
  end(error: unknown, output?: ChatModelOutput): void {
    this.#opened?.turn.stopForwarding();
    this.#opened?.turn.settle(error, output);
  }
}

async function openMember(turn: MemberTurn): Promise<OpenedStream> {
  const stream = turn.model.createStream(turn.input);
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  return { stream, iterator, first, turn };
}
