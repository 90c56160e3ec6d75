/**
 * ABI of what the kit reads from a deployed `TrustGated` gate: its oracle, policy, agent domain and identity
 * registry, the non-reverting `trustVerdict`, the configuration events and the refusal errors (to name why a
 * gated call reverted). A viem-typed `as const` array, proved equal to the compiled `TrustGated` ABI by
 * `test/sdk/oracle-reader.test.ts`.
 *
 * @packageDocumentation
 */

/** A gate policy as a tuple (`TrustPolicy` struct). */
const trustPolicyComponents = [
  { name: "minScore", type: "uint8" },
  { name: "maxSybilSeverity", type: "uint8" },
  { name: "maxAge", type: "uint32" },
  { name: "requireController", type: "bool" },
] as const;

/** The views, events and refusal errors of `TrustGated` that the kit uses. */
export const trustGatedAbi = [
  {
    type: "function",
    name: "trustPolicy",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "policy", type: "tuple", components: trustPolicyComponents }],
  },
  {
    type: "function",
    name: "trustOracle",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "address" }],
  },
  {
    type: "function",
    name: "identityRegistry",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "address" }],
  },
  {
    type: "function",
    name: "agentDomain",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "chainId", type: "uint256" },
      { name: "registry", type: "string" },
    ],
  },
  {
    type: "function",
    name: "trustVerdict",
    stateMutability: "view",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "account", type: "address" },
    ],
    outputs: [
      { name: "allowed", type: "bool" },
      { name: "refusal", type: "uint8" },
      {
        name: "record",
        type: "tuple",
        components: [
          { name: "score", type: "uint8" },
          { name: "tier", type: "uint8" },
          { name: "sybilSeverity", type: "uint8" },
          { name: "updatedAt", type: "uint40" },
        ],
      },
    ],
  },
  {
    type: "event",
    name: "TrustPolicyChanged",
    anonymous: false,
    inputs: [
      { name: "previousPolicy", type: "tuple", indexed: false, components: trustPolicyComponents },
      { name: "newPolicy", type: "tuple", indexed: false, components: trustPolicyComponents },
    ],
  },
  {
    type: "event",
    name: "TrustOracleChanged",
    anonymous: false,
    inputs: [
      { name: "previousOracle", type: "address", indexed: true },
      { name: "newOracle", type: "address", indexed: true },
    ],
  },
  {
    type: "error",
    name: "TrustOracleUnavailable",
    inputs: [
      { name: "oracle", type: "address" },
      { name: "reason", type: "bytes" },
    ],
  },
  {
    type: "error",
    name: "TrustOracleMalformedResponse",
    inputs: [
      { name: "oracle", type: "address" },
      { name: "response", type: "bytes" },
    ],
  },
  {
    type: "error",
    name: "TrustRecordMissing",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "chainId", type: "uint256" },
      { name: "registry", type: "string" },
    ],
  },
  {
    type: "error",
    name: "TrustRecordFromFuture",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "updatedAt", type: "uint40" },
      { name: "blockTimestamp", type: "uint256" },
    ],
  },
  {
    type: "error",
    name: "TrustRecordStale",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "updatedAt", type: "uint40" },
      { name: "maxAge", type: "uint32" },
      { name: "blockTimestamp", type: "uint256" },
    ],
  },
  {
    type: "error",
    name: "TrustScoreTooLow",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "score", type: "uint8" },
      { name: "minScore", type: "uint8" },
    ],
  },
  {
    type: "error",
    name: "SybilSeverityTooHigh",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "sybilSeverity", type: "uint8" },
      { name: "maxSybilSeverity", type: "uint8" },
    ],
  },
  {
    type: "error",
    name: "AgentIdentityUnavailable",
    inputs: [
      { name: "identityRegistry", type: "address" },
      { name: "agentId", type: "uint256" },
    ],
  },
  {
    type: "error",
    name: "NotAgentController",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "account", type: "address" },
    ],
  },
] as const;
