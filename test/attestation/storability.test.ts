/**
 * The chain slug table the kit declares for `AttestedTrustOracle` (`ORACLE_CHAIN_SLUGS`, which the verdict's `onchain`
 * part and `toAttestationCall` read) against the oracle itself, deployed on Hardhat's in-process network: every slug
 * maps to the same chain id there, whatever the oracle seeds it maps here (its `ChainSlugSet` events at deployment),
 * and the spellings the audit found accepted off-chain (`Base`, `solana`, `bäse`, an alias) map to none on either side.
 */
import hre from "hardhat";
import { describe, expect, it } from "vitest";
import { chainStorability } from "../../src/attestation/storability.js";
import { ORACLE_CHAIN_SLUGS, TRUST_CHAINS } from "../../src/config/chains.js";
import { AttestedTrustOracle__factory } from "../../typechain-types";

describe("ORACLE_CHAIN_SLUGS is the table AttestedTrustOracle is deployed with", () => {
  it("maps each slug as the deployed oracle does, holds every slug the oracle seeds, and no other spelling", async () => {
    const [admin] = await hre.ethers.getSigners();
    const oracle = await new AttestedTrustOracle__factory(admin).deploy(admin!.address, hre.ethers.ZeroAddress);
    await oracle.waitForDeployment();

    for (const [slug, chainId] of ORACLE_CHAIN_SLUGS) expect(await oracle.chainIdOfSlug(slug), slug).toBe(BigInt(chainId));

    const receipt = await oracle.deploymentTransaction()!.wait();
    const seeded = new Map<string, bigint>();
    for (const log of receipt!.logs) {
      const parsed = oracle.interface.parseLog(log);
      if (parsed?.name === "ChainSlugSet") seeded.set(String(parsed.args[0]), BigInt(parsed.args[1] as bigint));
    }
    expect(seeded.size).toBe(ORACLE_CHAIN_SLUGS.size);
    for (const [slug, chainId] of seeded) expect(ORACLE_CHAIN_SLUGS.get(slug), slug).toBe(Number(chainId));

    const others = ["Base", "BASE", "solana", "bäse", " base", ...TRUST_CHAINS.flatMap((chain) => chain.aliases)];
    for (const slug of others) {
      expect(await oracle.chainIdOfSlug(slug), slug).toBe(0n);
      expect(chainStorability(slug), slug).toMatchObject({ storable: false, reason: "unknown-chain-slug", chain: slug });
    }
  });
});
