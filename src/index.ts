/**
 * trustgate: integration kit for the on-chain AI-agent trust-score oracle on Base.
 *
 * - `readTrustRecord` / `readTrustRecords` / `readGatePolicy`: the oracle and gates, through viem.
 * - `createTrustApiClient` / `createTrustMcpClient`: the service's HTTP API and MCP endpoint.
 * - `verifyTrustAttestation` and friends: signed attestations, verified against the issuer's JWKS.
 * - `evaluateTrustPolicy`: the gate's decision in TypeScript.
 * - configuration: chains, addresses, tier and sybil encodings, service defaults.
 *
 * The local signing service is exported from `trustgate/service`.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./agent-key.js";
export * from "./config/index.js";
export * from "./policy.js";
export * from "./oracle/index.js";
export * from "./api/index.js";
export * from "./attestation/index.js";
export { installMulticall3, type Eip1193Requester, type InstallMulticall3Options, type InstallMulticall3Result } from "./harness/devnet/multicall3.js";
