/**
 * Listing the records an AttestedTrustOracle stored under one key id, from its events, on Hardhat's network: the
 * subjects, which records the key id still holds, and the key id's revocation state.
 */
import hre from "hardhat";
import { createPublicClient, custom, getAddress, keccak256, stringToBytes } from "viem";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import { listRecordsSignedBy } from "../../src/oracle/records-by-key.js";
import { AttestedTrustOracle__factory } from "../../typechain-types";
import { BASE_CHAIN_ID, ERC8004, latestTimestamp } from "../support/fixtures.js";
import { makeP256Key, signText, v2Signed } from "../support/onchain-attestations.js";

describe("listRecordsSignedBy", () => {
  it("names every subject a key id stored a record for, which it still holds, and whether it is revoked", async () => {
    const [admin] = await hre.ethers.getSigners();
    const deployed = await new AttestedTrustOracle__factory(admin!).deploy(admin!.address, hre.ethers.ZeroAddress);
    const oracle = getAddress(await deployed.getAddress());
    const fromBlock = BigInt(await hre.ethers.provider.getBlockNumber());
    const leaked = makeP256Key("rnwy-trust-v2");
    const next = makeP256Key("rnwy-trust-v3");
    await deployed.setSigningKey(leaked.kid, leaked.x, leaked.y);
    await deployed.setSigningKey(next.kid, next.x, next.y);
    const submit = async (key: typeof leaked, agentId: string, ageSeconds: number) => {
      const call = signText(key, v2Signed(await latestTimestamp(), { agentId }, ageSeconds));
      await deployed.submitAttestation(key.kid, call.signedJson, call.lowS);
    };
    await submit(leaked, "1", 600);
    await submit(leaked, "2", 600);
    await submit(next, "3", 600);
    await submit(next, "2", 60); // a later score under the next key replaces agent 2's record
    await submit(leaked, "1", 300); // a refresh under the same key: no RecordSignedBy, still the leaked key's record
    const refreshBlock = BigInt(await hre.ethers.provider.getBlockNumber());
    await deployed.revokeSigningKey(leaked.kid);

    const client = createPublicClient({ transport: custom(hre.network.provider) });
    const listed = await listRecordsSignedBy(client, oracle, leaked.kid, { fromBlock });
    expect(listed.kid).toBe(leaked.kid);
    expect(listed.revoked).toBe(true);
    expect(listed.records.map(({ agentId, chainId, registry, current }) => ({ agentId, chainId, registry, current }))).toEqual([
      { agentId: 1n, chainId: Number(BASE_CHAIN_ID), registry: ERC8004, current: true },
      { agentId: 2n, chainId: Number(BASE_CHAIN_ID), registry: ERC8004, current: false },
    ]);
    expect(listed.records[0]!.key).toBe(await deployed.recordKey(1n, BASE_CHAIN_ID, ERC8004));
    expect(listed.records[0]!.blockNumber).toBe(refreshBlock);

    const nextListed = await listRecordsSignedBy(client, oracle, next.kid, { fromBlock, blockRange: 1 });
    expect(nextListed.revoked).toBe(false);
    expect(nextListed.records.map((record) => [record.agentId, record.current])).toEqual([
      [3n, true],
      [2n, true],
    ]);
    expect(keccak256(stringToBytes(next.kid))).not.toBe(keccak256(stringToBytes(leaked.kid)));

    // A scan that starts after a key id was named cannot say whose its records are: said, not skipped.
    const late = BigInt(await hre.ethers.provider.getBlockNumber()) - 2n;
    await expect(listRecordsSignedBy(client, oracle, next.kid, { fromBlock: late })).rejects.toThrow(InvalidArgumentError);
  });
});
