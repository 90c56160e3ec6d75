/**
 * The ABI of Multicall3 (`0xcA11bde05977b3631167028862bE2a173976CA11` on Base and most EVM chains), as a
 * viem-typed `as const` array. The kit's own implementation, `contracts/utils/Multicall3.sol`, serves exactly
 * this ABI; `test/sdk/oracle-reader.test.ts` proves the two equal and pins the canonical selectors.
 *
 * @packageDocumentation
 */

/** `Call` struct: a call that must succeed. */
const callComponents = [
  { name: "target", type: "address" },
  { name: "callData", type: "bytes" },
] as const;

/** `Result` struct: whether a call succeeded and what it returned. */
const resultComponents = [
  { name: "success", type: "bool" },
  { name: "returnData", type: "bytes" },
] as const;

/** Every function of Multicall3. */
export const multicall3Abi = [
  {
    type: "function",
    name: "aggregate",
    stateMutability: "payable",
    inputs: [{ name: "calls", type: "tuple[]", components: callComponents }],
    outputs: [
      { name: "blockNumber", type: "uint256" },
      { name: "returnData", type: "bytes[]" },
    ],
  },
  {
    type: "function",
    name: "aggregate3",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "callData", type: "bytes" },
        ],
      },
    ],
    outputs: [{ name: "returnData", type: "tuple[]", components: resultComponents }],
  },
  {
    type: "function",
    name: "aggregate3Value",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "value", type: "uint256" },
          { name: "callData", type: "bytes" },
        ],
      },
    ],
    outputs: [{ name: "returnData", type: "tuple[]", components: resultComponents }],
  },
  {
    type: "function",
    name: "blockAndAggregate",
    stateMutability: "payable",
    inputs: [{ name: "calls", type: "tuple[]", components: callComponents }],
    outputs: [
      { name: "blockNumber", type: "uint256" },
      { name: "blockHash", type: "bytes32" },
      { name: "returnData", type: "tuple[]", components: resultComponents },
    ],
  },
  {
    type: "function",
    name: "tryAggregate",
    stateMutability: "payable",
    inputs: [
      { name: "requireSuccess", type: "bool" },
      { name: "calls", type: "tuple[]", components: callComponents },
    ],
    outputs: [{ name: "returnData", type: "tuple[]", components: resultComponents }],
  },
  {
    type: "function",
    name: "tryBlockAndAggregate",
    stateMutability: "payable",
    inputs: [
      { name: "requireSuccess", type: "bool" },
      { name: "calls", type: "tuple[]", components: callComponents },
    ],
    outputs: [
      { name: "blockNumber", type: "uint256" },
      { name: "blockHash", type: "bytes32" },
      { name: "returnData", type: "tuple[]", components: resultComponents },
    ],
  },
  {
    type: "function",
    name: "getBasefee",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "basefee", type: "uint256" }],
  },
  {
    type: "function",
    name: "getBlockHash",
    stateMutability: "view",
    inputs: [{ name: "blockNumber", type: "uint256" }],
    outputs: [{ name: "blockHash", type: "bytes32" }],
  },
  {
    type: "function",
    name: "getBlockNumber",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "blockNumber", type: "uint256" }],
  },
  {
    type: "function",
    name: "getChainId",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "chainid", type: "uint256" }],
  },
  {
    type: "function",
    name: "getCurrentBlockCoinbase",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "coinbase", type: "address" }],
  },
  {
    type: "function",
    name: "getCurrentBlockDifficulty",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "difficulty", type: "uint256" }],
  },
  {
    type: "function",
    name: "getCurrentBlockGasLimit",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "gaslimit", type: "uint256" }],
  },
  {
    type: "function",
    name: "getCurrentBlockTimestamp",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "timestamp", type: "uint256" }],
  },
  {
    type: "function",
    name: "getEthBalance",
    stateMutability: "view",
    inputs: [{ name: "addr", type: "address" }],
    outputs: [{ name: "balance", type: "uint256" }],
  },
  {
    type: "function",
    name: "getLastBlockHash",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "blockHash", type: "bytes32" }],
  },
] as const;
