/**
 * What the trust service publishes: the shapes of its responses and signed blocks, one file per endpoint family
 * (docs/service-api.md lists each with its source), written as zod 4 schemas, and the ids it writes whose
 * spelling its sources disagree on (`sybil-signals.ts`).
 *
 * Why zod: one schema gives both the runtime check of an untrusted response and the static TypeScript type
 * of the validated value (`z.infer`), so the two cannot drift apart; and its loose objects
 * (`z.looseObject`) keep every field the schema does not name, which matters here because the real
 * service documents few of its fields and may add more at any time. Each schema therefore **requires only
 * what every published variant carries** (for `/api/trust-check`: `agentId`, `chain`, `score`, `tier` and
 * the attestation's `issuer`, `kid`, `alg`, a signature) and leaves the rest optional or nullable, and it
 * accepts every published variant: `agentId` a number or a string; `sybilSeverity` `null`, a name or the
 * legacy `none`; `badges` `{earned, warnings}` or a flat array; v1 and v2 signed blocks; `attestationV1`;
 * `sig` only, `jws` only or both; `signed: null` with a compact JWS in `sig` (wallet-score). Field names are
 * the service's (snake_case where it uses snake_case). Tier and sybil-severity names are checked as strings,
 * not enums: an unknown name is something the drift job reports, not a reason to drop the response. Trust
 * comes from the verifier (`attestation/`), never from a schema.
 *
 * These schemas are the one definition of what the service publishes: the types (`TrustCheck`,
 * `TrustSignedV2`, `Attestation`, …) are derived from them, the API client validates responses with them, the
 * verifier reads responses as these types, the drift job reads the listing as them, and the local stand-in
 * service (`trustgate/service`) builds its bodies typed with them.
 *
 * @packageDocumentation
 */

export * from "./address-age.js";
export * from "./agents.js";
export * from "./attestation.js";
export * from "./common.js";
export * from "./compare.js";
export * from "./entity.js";
export * from "./error-body.js";
export * from "./explorer.js";
export * from "./mcp.js";
export * from "./mcp-attestation.js";
export * from "./reviewer.js";
export * from "./risk-terms.js";
export * from "./stats.js";
export * from "./sybil-signals.js";
export * from "./trust-check.js";
export * from "./wallet-score.js";
