import { describe, expect, it } from "vitest";
import { createTrustApiClient } from "../../src/api/client";
import { InvalidArgumentError, UnknownChainError } from "../../src/errors";
import { hasAddressShape, hasSolanaAddressShape, isZeroAddress, parseAddress, parseWallet } from "../../src/inputs/address";
import { parseAgentId } from "../../src/inputs/agent-id";
import { parseChain, parseChainId, parseEvmChain } from "../../src/inputs/chain";
import { parseThreshold } from "../../src/inputs/numbers";
import { parseRegistry } from "../../src/inputs/registry";
import { parseTrustRecordKey } from "../../src/oracle/record-key";

const CHECKSUMMED = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4";
const BAD_CHECKSUM = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276F4";

describe("one input dialect", () => {
  it("addresses: lower, upper or a valid EIP-55 checksum; a mixed-case typo is refused", () => {
    expect(parseAddress(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED);
    expect(parseAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBe(CHECKSUMMED);
    expect(() => parseAddress(BAD_CHECKSUM, "oracle")).toThrow(/Invalid oracle "0xD5.*": the EIP-55 checksum does not match/);
    expect(() => parseWallet(BAD_CHECKSUM)).toThrow(/EIP-55 checksum/);
    expect(parseWallet("7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV")).toBe("7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV");
  });

  it("an address's shape, for text the kit reads rather than takes from a user: 0x and 40 hex digits in any case", () => {
    for (const good of [CHECKSUMMED, BAD_CHECKSUM, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`]) {
      expect(hasAddressShape(good), good).toBe(true);
    }
    for (const bad of [
      `0X${CHECKSUMMED.slice(2)}`,
      ` ${CHECKSUMMED}`,
      `${CHECKSUMMED}\n`,
      CHECKSUMMED.slice(0, 41),
      `${CHECKSUMMED}0`,
      `${CHECKSUMMED.slice(0, 41)}g`,
      "",
    ]) {
      expect(hasAddressShape(bad), JSON.stringify(bad)).toBe(false);
    }
    const solana = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    expect(hasSolanaAddressShape(solana)).toBe(true);
    for (const bad of [`${solana.slice(0, 20)}0${solana.slice(21)}`, solana.slice(0, 31), `${solana}abcd`, ` ${solana}`, CHECKSUMMED]) {
      expect(hasSolanaAddressShape(bad), bad).toBe(false);
    }
    expect(isZeroAddress(`0x${"0".repeat(40)}`)).toBe(true);
    for (const other of [`0x${"0".repeat(39)}1`, `0x${"0".repeat(39)}`, `0x${"0".repeat(41)}`, "0x", CHECKSUMMED]) {
      expect(isZeroAddress(other), other).toBe(false);
    }
  });

  it("agent ids: decimal, bigint or safe number; no hex, no fractions, nothing above uint256", () => {
    expect(parseAgentId(" 0042 ")).toBe(42n);
    expect(parseAgentId(7)).toBe(7n);
    for (const bad of ["0x10", "1e3", -1, 1.5, 2 ** 60, 1n << 256n, "", null]) {
      expect(() => parseAgentId(bad, "keys[0].agentId"), String(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => parseAgentId("0x10", "keys[0].agentId")).toThrow(/keys\[0\]\.agentId "0x10"/);
  });

  it("chains: slugs, aliases and known ids, with a suggestion; record keys take any positive chain id", () => {
    expect(parseChain("BSC").slug).toBe("bnb");
    expect(parseChain(8453).slug).toBe("base");
    expect(() => parseChain("basse")).toThrow(UnknownChainError);
    expect(() => parseChain("")).toThrow(InvalidArgumentError);
    expect(() => parseEvmChain("solana")).toThrow(/not an EVM chain/);
    expect(parseChainId(31337n)).toBe(31337);
    expect(() => parseChainId(0)).toThrow(InvalidArgumentError);
  });

  it("registries: the service's names, any case, no white space around them", () => {
    expect(parseRegistry(undefined)).toBe("erc8004");
    expect(parseRegistry("OLAS")).toBe("olas");
    for (const bad of ["", " erc8004", "nope", 3]) expect(() => parseRegistry(bad), String(bad)).toThrow(InvalidArgumentError);
  });

  it("thresholds: integers from 0 to 100", () => {
    expect(parseThreshold(51)).toBe(51);
    expect(parseThreshold("0")).toBe(0);
    for (const bad of [-1, 101, 50.5, "abc", Number.NaN])
      expect(() => parseThreshold(bad), String(bad)).toThrow(/threshold must be an integer from 0 to 100/);
  });

  it("the oracle reader's keys use the same rules (a hex id and an unknown registry are refused)", () => {
    expect(parseTrustRecordKey({ agentId: "12", chain: "op", registry: "Virtuals" })).toEqual({
      agentId: 12n,
      chainId: 10,
      registry: "virtuals",
    });
    expect(() => parseTrustRecordKey({ agentId: "0x0c", chainId: 10 })).toThrow(/key\.agentId/);
    expect(() => parseTrustRecordKey({ agentId: 12, chainId: 10, registry: "mine" })).toThrow(/key\.registry/);
  });

  it("the API client checks addresses the same way, before any request (a wrong checksum is refused)", async () => {
    let requests = 0;
    const api = createTrustApiClient({
      baseUrl: "http://127.0.0.1:1",
      fetch: (async () => {
        requests++;
        throw new Error("no network");
      }) as never,
    });
    await expect(api.entity(BAD_CHECKSUM)).rejects.toThrow(/EIP-55 checksum/);
    await expect(api.walletScore(BAD_CHECKSUM)).rejects.toThrow(InvalidArgumentError);
    await expect(api.trustCheck({ id: 1, chain: "base", threshold: 50.5 })).rejects.toThrow(InvalidArgumentError);
    expect(requests).toBe(0);
  });
});
