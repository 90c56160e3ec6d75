/**
 * Decoding the followed oracle events (the map of record keys to agents with them): each kind's fields, the agent
 * named from the key map, a log that does not decode refused with its reason, log order; and the key map itself.
 */
import { encodePacked, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors";
import { compareLogOrder, decodeOracleChange, type OracleLog } from "../../src/watch/oracle-events";
import { agentOfRecordEvent, createRecordKeyMap } from "../../src/watch/record-keys";

const ORACLE = "0xd5fdccd492bb5568bc7aeb1f1e888e0bba6276f4";
const block = { number: 10n, hash: `0x${"b".repeat(64)}` as const, timestamp: 1_764_400_000 };
const key = keccak256(encodePacked(["uint256", "uint256", "string"], [7n, 8453n, "erc8004"]));
const log = (eventName: string, args: Record<string, unknown>, logIndex = 0): OracleLog => ({
  address: ORACLE,
  blockNumber: block.number,
  blockHash: block.hash,
  transactionHash: `0x${"c".repeat(64)}`,
  logIndex,
  eventName,
  args,
});

describe("decodeOracleChange", () => {
  it("names a RecordUpdated's agent once its RecordAdded was seen, and none before", () => {
    const keys = createRecordKeyMap();
    const updated = log("RecordUpdated", { key, record: 42n }, 1);
    expect(decodeOracleChange(updated, block, keys)).toMatchObject({ kind: "record-updated", agent: null, record: 42n });
    const added = decodeOracleChange(
      log("RecordAdded", { key, agentId: 7n, chainId: 8453n, registry: "erc8004", record: 41n }),
      block,
      keys,
    );
    const agent = { chain: "base", chainId: 8453, agentId: 7n, registry: "erc8004" };
    expect(added).toEqual({
      kind: "record-added",
      contract: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
      key,
      agent,
      kid: null,
      kidHash: null,
      record: 41n,
      block,
      transactionHash: `0x${"c".repeat(64)}`,
      logIndex: 0,
    });
    expect(decodeOracleChange(updated, block, keys)).toMatchObject({ agent });
    expect(decodeOracleChange(log("SigningKeyRevoked", { kid: "rnwy-trust-v1" }), block, keys)).toMatchObject({
      kind: "signing-key-revoked",
      key: null,
      agent: null,
      kid: "rnwy-trust-v1",
    });
  });

  it("refuses a log whose fields do not decode as its event, saying which", () => {
    const keys = createRecordKeyMap();
    expect(decodeOracleChange(log("RecordUpdated", { key }), block, keys)).toEqual({
      problem: `the log 0 of block 10 from ${ORACLE} does not decode as RecordUpdated: no record`,
    });
    expect(decodeOracleChange(log("RecordAdded", { key, agentId: 7n }), block, keys)).toMatchObject({ problem: /: no agent$/ });
    expect(decodeOracleChange(log("RecordSignedBy", { key: "0x12", kid: key }), block, keys)).toMatchObject({
      problem: /: no record key$/,
    });
    expect(decodeOracleChange(log("Transfer", {}), block, keys)).toMatchObject({ problem: /not a followed event$/ });
    expect(keys.size).toBe(0);
  });

  it("orders logs by block, then index", () => {
    const at = (blockNumber: bigint, logIndex: number): OracleLog => ({ ...log("RecordUpdated", {}), blockNumber, logIndex });
    const sorted = [at(11n, 0), at(10n, 3), at(10n, 1)].sort(compareLogOrder);
    expect(sorted.map((l) => [l.blockNumber, l.logIndex])).toEqual([
      [10n, 1],
      [10n, 3],
      [11n, 0],
    ]);
  });
});

describe("the record key map", () => {
  it("finds a key in any case, refuses a key that is not 32 bytes, and names unknown chains by their id", () => {
    const keys = createRecordKeyMap();
    const agent = agentOfRecordEvent(7n, 8453n, "erc8004");
    keys.learn(key, agent);
    expect(keys.agentOf(key.toUpperCase().replace("0X", "0x") as typeof key)).toEqual(agent);
    expect(keys.agentOf("0x1234")).toBeNull();
    expect(() => keys.learn("0x1234", agent)).toThrow(InvalidArgumentError);
    expect(agentOfRecordEvent(1n, 999_999n, "erc8004")).toEqual({ chain: "999999", chainId: 999_999, agentId: 1n, registry: "erc8004" });
    expect(agentOfRecordEvent(1n, 2n ** 64n, "erc8004")).toEqual({
      chain: (2n ** 64n).toString(),
      chainId: null,
      agentId: 1n,
      registry: "erc8004",
    });
  });
});
