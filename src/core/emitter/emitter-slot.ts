import { noListeners, type ChatModelEmitter, type EventSink } from "./chat-model-emitter.js";

/**
 * Where a model keeps its emitter once someone asked for it. The model hands the slot to its calls
 * and its cache once; they read it at each use (a listener added mid-call counts from then on),
 * without calling back into the model.
 */
export interface EmitterSlot {
  emitter: ChatModelEmitter | undefined;
}

/** The slot's emitter, or `noListeners` while nobody has asked for one. */
export function sinkOf(slot: EmitterSlot): EventSink {
  return slot.emitter ?? noListeners;
}
