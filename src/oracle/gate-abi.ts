/**
 * ABI of a deployed `TrustGated` gate, generated from `ITrustGated` (`src/generated/abis.ts`, written by
 * `npm run generate`): its oracle, policy, agent domain and identity registry, the non-reverting `trustVerdict`,
 * the owner's setters, the configuration events and the refusal errors (to name why a gated call reverted).
 *
 * @packageDocumentation
 */
export { trustGatedAbi } from "../generated/abis.js";
