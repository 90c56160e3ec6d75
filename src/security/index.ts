/**
 * What the kit does with secrets, hostile services and outputs: the bounded body reader, the secret scrubber, the
 * URL redactor, the endpoint URL check and the sanitiser of outside text.
 *
 * @packageDocumentation
 */
export { MAX_API_RESPONSE_BYTES, MAX_JWKS_RESPONSE_BYTES, type ReadBoundedTextOptions, readBoundedText } from "./bounded-body.js";
export { type ParseEndpointUrlOptions, parseEndpointUrl } from "./endpoint-url.js";
export { markdownText, sanitizeText } from "./outside-text.js";
export { printableText } from "./printable.js";
export { HIDDEN_SEGMENT, PUBLIC_QUERY_PARAMETERS, redactUrl, redactUrlsIn } from "./redact-url.js";
export { createSecretScrubber, REDACTED, scrubSecrets, scrubSecretsDeep } from "./secrets.js";
