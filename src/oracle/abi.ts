/**
 * ABIs of the trust oracle, written out as viem-typed `as const` arrays so that reads and writes are fully
 * typed without generated code. `test/sdk/oracle-reader.test.ts` proves each item equal to the compiled
 * contracts' ABI (`contracts/interfaces/ITrustOracle.sol`, `contracts/oracle/TrustScoreOracle.sol`), so the
 * two can never drift apart.
 *
 * @packageDocumentation
 */

/**
 * The read ABI of the oracle deployed on Base (`ITrustOracle`): `getScore`, `hasScore`, `meetsThreshold`,
 * `agentCount`. Served identically by the reference oracle and the mock.
 */
export const trustOracleAbi = [
  {
    type: "function",
    name: "getScore",
    stateMutability: "view",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "chainId", type: "uint256" },
      { name: "registry", type: "string" },
    ],
    outputs: [
      { name: "score", type: "uint8" },
      { name: "tier", type: "uint8" },
      { name: "sybilSeverity", type: "uint8" },
      { name: "updatedAt", type: "uint40" },
    ],
  },
  {
    type: "function",
    name: "hasScore",
    stateMutability: "view",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "chainId", type: "uint256" },
      { name: "registry", type: "string" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "meetsThreshold",
    stateMutability: "view",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "chainId", type: "uint256" },
      { name: "registry", type: "string" },
      { name: "threshold", type: "uint8" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "agentCount",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "uint256" }],
  },
] as const;

/** The key of a record to remove, as `TrustScoreOracle.remove` takes it (`RecordKey` struct). */
const recordKeyComponents = [
  { name: "agentId", type: "uint256" },
  { name: "chainId", type: "uint256" },
  { name: "registry", type: "string" },
] as const;

/**
 * What the kit uses of the reference oracle `TrustScoreOracle` beyond the read ABI: batch `publish` and
 * `remove`, `recordKey`, `PUBLISHER_ROLE`, the record events and the publishing errors (to decode a refused
 * batch). Includes {@link trustOracleAbi}.
 */
export const trustScoreOracleAbi = [
  ...trustOracleAbi,
  {
    type: "function",
    name: "publish",
    stateMutability: "nonpayable",
    inputs: [
      {
        name: "updates",
        type: "tuple[]",
        components: [
          { name: "agentId", type: "uint256" },
          { name: "chainId", type: "uint256" },
          { name: "registry", type: "string" },
          { name: "score", type: "uint8" },
          { name: "tier", type: "uint8" },
          { name: "sybilSeverity", type: "uint8" },
          { name: "updatedAt", type: "uint40" },
        ],
      },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "remove",
    stateMutability: "nonpayable",
    inputs: [{ name: "keys", type: "tuple[]", components: recordKeyComponents }],
    outputs: [],
  },
  {
    type: "function",
    name: "recordKey",
    stateMutability: "pure",
    inputs: [
      { name: "agentId", type: "uint256" },
      { name: "chainId", type: "uint256" },
      { name: "registry", type: "string" },
    ],
    outputs: [{ name: "key", type: "bytes32" }],
  },
  {
    type: "function",
    name: "PUBLISHER_ROLE",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "bytes32" }],
  },
  {
    type: "event",
    name: "RecordAdded",
    anonymous: false,
    inputs: [
      { name: "key", type: "bytes32", indexed: true },
      { name: "agentId", type: "uint256", indexed: true },
      { name: "chainId", type: "uint256", indexed: true },
      { name: "registry", type: "string", indexed: false },
      { name: "record", type: "uint256", indexed: false },
    ],
  },
  {
    type: "event",
    name: "RecordUpdated",
    anonymous: false,
    inputs: [
      { name: "key", type: "bytes32", indexed: true },
      { name: "record", type: "uint256", indexed: false },
    ],
  },
  {
    type: "event",
    name: "RecordRemoved",
    anonymous: false,
    inputs: [
      { name: "key", type: "bytes32", indexed: true },
      { name: "agentId", type: "uint256", indexed: true },
      { name: "chainId", type: "uint256", indexed: true },
      { name: "registry", type: "string", indexed: false },
    ],
  },
  { type: "error", name: "EmptyBatch", inputs: [] },
  {
    type: "error",
    name: "ScoreOutOfRange",
    inputs: [
      { name: "index", type: "uint256" },
      { name: "score", type: "uint8" },
      { name: "maxScore", type: "uint8" },
    ],
  },
  {
    type: "error",
    name: "TierOutOfRange",
    inputs: [
      { name: "index", type: "uint256" },
      { name: "tier", type: "uint8" },
      { name: "maxTier", type: "uint8" },
    ],
  },
  {
    type: "error",
    name: "SybilSeverityOutOfRange",
    inputs: [
      { name: "index", type: "uint256" },
      { name: "sybilSeverity", type: "uint8" },
      { name: "maxSybilSeverity", type: "uint8" },
    ],
  },
  { type: "error", name: "EmptyRegistry", inputs: [{ name: "index", type: "uint256" }] },
  { type: "error", name: "ZeroTimestamp", inputs: [{ name: "index", type: "uint256" }] },
  {
    type: "error",
    name: "FutureTimestamp",
    inputs: [
      { name: "index", type: "uint256" },
      { name: "updatedAt", type: "uint40" },
      { name: "blockTimestamp", type: "uint256" },
    ],
  },
  {
    type: "error",
    name: "UpdateNotNewer",
    inputs: [
      { name: "index", type: "uint256" },
      { name: "storedUpdatedAt", type: "uint40" },
      { name: "updatedAt", type: "uint40" },
    ],
  },
  {
    type: "error",
    name: "RecordNotFound",
    inputs: [
      { name: "index", type: "uint256" },
      { name: "agentId", type: "uint256" },
      { name: "chainId", type: "uint256" },
      { name: "registry", type: "string" },
    ],
  },
  {
    type: "error",
    name: "AccessControlUnauthorizedAccount",
    inputs: [
      { name: "account", type: "address" },
      { name: "neededRole", type: "bytes32" },
    ],
  },
] as const;

/**
 * Errors the kit knows an oracle read can revert with, used to name the revert reason of a failed read
 * (`Error(string)` and `Panic(uint256)` are always decoded). Today: the kit's `MockTrustOracle`, whose reads
 * revert with `MockOracleUnavailable()` while it is made unavailable; the Base oracle publishes no errors.
 */
export const trustOracleReadErrorsAbi = [{ type: "error", name: "MockOracleUnavailable", inputs: [] }] as const;
