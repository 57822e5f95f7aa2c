import type { ModelSettings } from "../model-settings.js";
import { UnsupportedFeatureError } from "../errors/unsupported-feature-error.js";
import type { ChatModelParameters } from "../input.js";
import type { ParameterName } from "../parameters/parameter-name.js";

/**
 * Takes the parameters the provider has no field for out of a call's (merged, own) parameters, so
 * that none of them is dropped silently: each one set is returned, for one `unsupported-parameter`
 * warning per process, model and parameter. A parameter left unset is no concern of the caller's and goes
 * unmentioned. With `strictParameters`, setting one is an UnsupportedFeatureError before any request.
 */
export function dropUnsupportedParameters(parameters: ChatModelParameters, model: ModelSettings): ParameterName[] {
  const dropped: ParameterName[] = [];
  if (model.unsupportedParameters.size === 0) return dropped;
  for (const name of model.unsupportedParameters) {
    if (parameters[name] === undefined) continue;
    dropped.push(name);
    delete parameters[name];
  }
  if (dropped.length > 0 && model.strictParameters) throw strictError(model, dropped);
  return dropped;
}

/** The warning's text: what is dropped, and how to make it an error instead. */
export function droppedParameterMessage(model: ModelSettings, name: ParameterName): string {
  return (
    `${model.providerId} ${model.modelId} has no parameter '${name}': parameters.${name} is not sent. ` +
    "Leave it out for this model, or set strictParameters: true to make it an error."
  );
}

function strictError(model: ModelSettings, dropped: ParameterName[]): UnsupportedFeatureError {
  const names = dropped.map((name) => `parameters.${name}`).join(", ");
  return new UnsupportedFeatureError(
    `${model.providerId} ${model.modelId} does not support ${names} (strictParameters is true, so nothing was sent). ` +
      "Leave it out for this model, or set strictParameters: false to have it dropped with a warning.",
    { feature: `parameter:${dropped[0]!}`, providerId: model.providerId, modelId: model.modelId },
  );
}
