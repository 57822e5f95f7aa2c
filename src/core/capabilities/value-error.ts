import type { ProviderError } from "../errors/provider-error.js";

/** Error codes of a value the provider refused (the feature is there; this value is not allowed). */
const valueCodes =
  /(?:^|_)(?:below_min|above_max|min_value|max_value|out_of_range|invalid_type|invalid_value|invalid_schema|invalid_format|too_(?:large|small|long|short|big|many|few)|greater_than|less_than|(?:min|max)_length|not_a_number)(?:_|$)/i;

/**
 * What a provider says of a *value* it refused: a range ("Expected a value >= 0", "must be between
 * 0 and 2", "Input should be less than or equal to 2"), a type ("is not of type 'number'", "must be
 * an integer"), a length or a count, a malformed value ("invalid JSON", "Invalid schema").
 */
const valueWordings: RegExp[] = [
  /\bexpected (?:a value|an? (?:integer|number|float|decimal|string|boolean|object|array)|one of)\b/i,
  /\b(?:must|should|needs? to|has to) (?:be|have) (?:at (?:least|most)|between|in (?:the )?range|within|greater|less|larger|smaller|higher|lower|more|fewer|no (?:more|less|greater|larger)|equal|an? (?:integer|number|float|decimal|string|boolean|valid|positive|non-?negative|object|array|list)|positive|non-?negative|[<>]=?|≥|≤)/i,
  /\binput should be\b/i,
  /\b(?:below|above|exceeds?|under|over) (?:the )?(?:allowed |permitted )?(?:minimum|maximum|min|max|limit)\b/i,
  /\b(?:minimum|maximum) (?:value|allowed|is|of)\b/i,
  /\bout of (?:range|bounds)\b/i,
  /\btoo (?:large|small|long|short|high|low|big|many|few)\b/i,
  /\b(?:greater|less|more|fewer|larger|smaller) than(?: or equal to)?\s*-?\d/i,
  /(?:^|\s)(?:>=|<=|≥|≤)\s*-?\d/,
  /\bis not (?:of type|a valid (?:number|integer|float|decimal|string|boolean|value|json|enum))\b/i,
  /\binvalid (?:type|json|schema|format|number|integer|enum)\b/i,
  /\bcannot be (?:negative|empty|zero|less|greater|more)\b/i,
  /\bmalformed\b/i,
  /\bfailed to satisfy constraint\b/i,
  /\binvalid value (?:at|for)\b/i,
  /\bcannot unmarshal\b/i,
  /\bvalid range\b/i,
  /\bmust be strictly\b/i,
];

/**
 * What a provider says of a *feature* it does not know, even inside wording that also reads as a
 * value error (Gemini: "Invalid JSON payload received. Unknown name \"pattern\" …: Cannot find
 * field."): such a refusal is learned, whatever else the message says.
 */
const featureWordings =
  /\bunknown (?:name|field|parameter|property|argument)\b|\bcannot find field\b|\bunrecognized (?:request )?(?:argument|field|parameter|key)|\bextra inputs are not permitted\b|\b(?:is )?not supported\b|\bunsupported (?:parameter|field|value)\b/i;

/**
 * Whether a provider's 400 refused a *value* (out of range, of the wrong type, malformed) rather
 * than a *feature* (an unsupported parameter, field, tool_choice value or response format). A value
 * error is the caller's `invalid-request` error: keelson learns nothing from it and does not send
 * the call again without the value (the caller's valid value would be dropped everywhere after).
 */
export function isValueError(error: ProviderError): boolean {
  const code = typeof error.code === "string" ? error.code : "";
  if (valueCodes.test(code)) return true;
  const message = typeof error.message === "string" ? error.message : "";
  if (featureWordings.test(message)) return false;
  return valueWordings.some((wording) => wording.test(message));
}
