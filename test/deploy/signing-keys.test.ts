// Installing the service's signing keys on a deployed AttestedTrustOracle (src/deploy/signing-keys.ts): real P-256
// keys, a JWKS served over loopback HTTP or read from a file, a real AttestedTrustOracle on an in-process chain.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from "jose";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  getAddress,
  http,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { chainOf, loadJwks, type SigningKeysResult, type UpdateSigningKeysParameters, updateSigningKeys } from "../../src/deploy/index.js";
import { DeploymentError } from "../../src/errors.js";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { revertDecodingTransport } from "../../src/harness/devnet/revert-transport.js";
import { resolveServiceKeys, type ServiceKeys } from "../../src/harness/service/keys.js";
import { type AttestationSigningKey, generateSigningKey } from "../../src/harness/signing.js";
import { attestedTrustOracleAbi } from "../../src/oracle/abi.js";
import { submitTrustAttestation } from "../../src/oracle/attested-oracle.js";
import { buildTrustCheckResponse, type JwksTestServer, jwksOf, startJwksServer, unreachableJwksUrl } from "../support/attestations.js";
import { coordinateHex, deployAttestedOracle, HARDHAT_KEY_0, nonceOf, tempDeploymentsDir } from "./support.js";

let v1: AttestationSigningKey;
let v2: AttestationSigningKey;
let v3: AttestationSigningKey;
let wallet: AttestationSigningKey;
/** The local signing service's keys: its JWKS publishes rnwy-trust-v2, rnwy-trust-v1, rnwy-wallet-v1, rnwy-mcp-v1. */
let service: ServiceKeys;

beforeAll(async () => {
  service = await resolveServiceKeys({});
  [v1, v2, v3, wallet] = [service.trustV1, service.trust, await generateSigningKey("rnwy-trust-v3"), service.wallet];
});

const ZERO = `0x${"0".repeat(64)}`;

function thumbprintOf(key: AttestationSigningKey): Promise<string> {
  return calculateJwkThumbprint(key.publicJwk, "sha256");
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Setup {
  readonly chain: LocalChain;
  readonly publicClient: PublicClient;
  readonly accounts: Address[];
  readonly oracle: Address;
}

/** A chain with an AttestedTrustOracle whose admin is the node's first account. */
async function setup(chainId = 31337): Promise<Setup> {
  const chain = await startLocalChain({ chainId });
  cleanups.push(chain.close);
  const accounts = ((await chain.provider.request({ method: "eth_accounts" })) as Address[]).map((a) => getAddress(a));
  const oracle = await deployAttestedOracle(chain.provider, accounts[0]!, accounts[0]!);
  const publicClient = createPublicClient({ transport: custom(chain.provider) }) as PublicClient;
  return { chain, publicClient, accounts, oracle };
}

async function serve(jwks: JSONWebKeySet): Promise<JwksTestServer> {
  const server = await startJwksServer(jwks);
  cleanups.push(server.close);
  return server;
}

async function held(s: Setup, kid: string): Promise<{ x: string; y: string; revoked: boolean }> {
  const [x, y, revoked] = await s.publicClient.readContract({
    address: s.oracle,
    abi: attestedTrustOracleAbi,
    functionName: "signingKey",
    args: [kid],
  });
  return { x, y, revoked };
}

/** Runs updateSigningKeys on a local network (the node's unlocked accounts), collecting its lines. */
async function update(s: Setup, options: Partial<UpdateSigningKeysParameters>): Promise<SigningKeysResult & { lines: string[] }> {
  const lines: string[] = [];
  const result = await updateSigningKeys({
    provider: s.chain.provider,
    oracle: s.oracle,
    network: "localhost",
    local: true,
    log: (line) => lines.push(line),
    ...options,
  });
  return { ...result, lines };
}

function jwksFile(jwks: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "trustgate-jwks-")), "jwks.json");
  writeFileSync(path, typeof jwks === "string" ? jwks : JSON.stringify(jwks));
  return path;
}

async function blockNumber(s: Setup): Promise<bigint> {
  return s.publicClient.getBlockNumber();
}

function revertName(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
}

describe("setting the JWKS's keys", () => {
  test("from the service's JWKS (trust v2 and v1, wallet-score, MCP) installs only rnwy-trust-v2, with the JWK's coordinates; a second run sends nothing", async () => {
    const s = await setup();
    expect(service.published.map((k) => k.kid)).toEqual(["rnwy-trust-v2", "rnwy-trust-v1", "rnwy-wallet-v1", "rnwy-mcp-v1"]);
    const server = await serve(jwksOf(...service.published));
    const first = await update(s, { jwks: server.jwksUrl });
    expect(first.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-trust-v2", "set"]]);
    expect(first.transactionsSent).toBe(1);
    expect(first.sender).toBe(s.accounts[0]);
    expect(first.jwks).toBe(server.jwksUrl);
    expect(await held(s, "rnwy-trust-v2")).toEqual({ x: coordinateHex(v2.publicJwk.x), y: coordinateHex(v2.publicJwk.y), revoked: false });
    for (const kid of ["rnwy-trust-v1", "rnwy-wallet-v1", "rnwy-mcp-v1"])
      expect(await held(s, kid)).toEqual({ x: ZERO, y: ZERO, revoked: false });
    const thumbprint = await thumbprintOf(v2);
    expect(first.changes[0]!.thumbprint).toBe(thumbprint);
    expect(first.lines.join("\n")).toContain(
      `+ set signing key "rnwy-trust-v2" (x ${coordinateHex(v2.publicJwk.x)}, y ${coordinateHex(v2.publicJwk.y)}, thumbprint ${thumbprint}) (transaction 0x`,
    );

    const nonce = await nonceOf(s.chain.provider, s.accounts[0]!);
    const second = await update(s, { jwks: server.jwksUrl });
    expect(second.changes.map((c) => c.kind)).toEqual(["unchanged"]);
    expect(second.transactionsSent).toBe(0);
    expect(await nonceOf(s.chain.provider, s.accounts[0]!)).toBe(nonce);
    expect(second.lines).toContain(`= signing key "rnwy-trust-v2" already set with the same coordinates (thumbprint ${thumbprint})`);
    expect(second.lines.at(-1)).toBe("Signing keys: nothing to change, the oracle already holds them.");
  });

  test("the installed key verifies the service's attestations: getScore answers the signed values", async () => {
    const s = await setup();
    await update(s, { jwks: jwksFile(jwksOf(v2)) });
    const transport = revertDecodingTransport(s.chain.provider);
    const clients = {
      wallet: createWalletClient({ account: s.accounts[3]!, chain: chainOf(31337, "localhost"), transport }),
      public: createPublicClient({ transport }) as PublicClient,
    };
    const now = Number((await clients.public.getBlock()).timestamp) * 1000;
    const response = await buildTrustCheckResponse(v2, {
      agent: { agentId: 4242, score: 77, tier: "established", sybilSeverity: null },
      issuedAt: new Date(now - 3_600_000),
      verifiedAt: new Date(now - 60_000),
    });
    await submitTrustAttestation(clients, s.oracle, response);
    const [score, tier, sybil] = await clients.public.readContract({
      address: s.oracle,
      abi: attestedTrustOracleAbi,
      functionName: "getScore",
      args: [4242n, 8453n, "erc8004"],
    });
    expect([score, tier, sybil]).toEqual([77, 3, 0]);
    // A key not installed (the wallet-score key) is refused by the oracle.
    const other = await buildTrustCheckResponse(wallet, { issuedAt: new Date(now - 60_000) });
    expect(revertName(await submitTrustAttestation(clients, s.oracle, other).catch((e: unknown) => e))).toBe("UnknownSigningKey");
  });

  test("--kid picks on-chain trust kids; a kid the JWKS lacks is an error listing its kids", async () => {
    const s = await setup();
    const server = await serve(jwksOf(v2, v1));
    const before = await blockNumber(s);
    const missing = update(s, { jwks: server.jwksUrl, kids: ["rnwy-trust-v2"], forceKids: ["rnwy-trust-v9"] });
    await expect(missing).rejects.toMatchObject({
      reason: "bad-jwks",
      shortMessage: `The JWKS ${server.jwksUrl} has no key "rnwy-trust-v9" (its kids: "rnwy-trust-v2", "rnwy-trust-v1")`,
    });
    expect(await blockNumber(s)).toBe(before);
    const picked = await update(s, { jwks: server.jwksUrl, kids: ["rnwy-trust-v2"] });
    expect(picked.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-trust-v2", "set"]]);
  });
});

describe("one purpose per key", () => {
  test("--kid with a legacy v1, wallet-score or MCP kid is refused before the node is asked, saying why and how to force it", async () => {
    const s = await setup();
    const file = jwksFile(jwksOf(...service.published));
    const why: Record<string, string> = {
      "rnwy-mcp-v1": '"rnwy-mcp-v1" signs MCP attestations, and the oracle would let it sign trust records',
      "rnwy-wallet-v1": '"rnwy-wallet-v1" signs wallet-score attestations, and the oracle would let it sign trust records',
      "rnwy-trust-v1": '"rnwy-trust-v1" signs legacy v1 trust-check blocks, which can never be read on-chain',
      "rnwy-trust-v3": '"rnwy-trust-v3" is not a trust-check kid whose block the on-chain reader reads',
    };
    const requests: string[] = [];
    const counting = { request: (args: { method: string }) => (requests.push(args.method), s.chain.provider.request(args)) };
    for (const [kid, reason] of Object.entries(why)) {
      const refused = (await update(s, { provider: counting, jwks: file, kids: ["rnwy-trust-v2", kid] }).catch(
        (e: unknown) => e,
      )) as DeploymentError;
      expect(refused).toBeInstanceOf(DeploymentError);
      expect(refused.reason).toBe("refused-kid");
      expect(refused.shortMessage).toBe(
        `Refusing to install "${kid}": ${reason}. The oracle holds only "rnwy-trust-v2" unless another kid is forced by name (--force-kid ${kid}, or attestedOracle.forceKids)`,
      );
    }
    expect(requests).toEqual([]);
    expect(await held(s, "rnwy-trust-v2")).toEqual({ x: ZERO, y: ZERO, revoked: false });
  });

  test("--force-kid installs a kid outside the on-chain trust kids by name, with a warning; alone, it installs only what it names", async () => {
    const s = await setup();
    const file = jwksFile(jwksOf(...service.published));
    const forced = await update(s, { jwks: file, forceKids: ["rnwy-mcp-v1"] });
    expect(forced.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-mcp-v1", "set"]]);
    expect(forced.lines).toContain(
      '! signing key "rnwy-mcp-v1" is forced: "rnwy-mcp-v1" signs MCP attestations, and the oracle would let it sign trust records; the oracle will accept trust records it signs',
    );
    expect((await held(s, "rnwy-mcp-v1")).x).toBe(coordinateHex(service.mcp.publicJwk.x));
    expect((await held(s, "rnwy-trust-v2")).x).toBe(ZERO);
    // The service's next trust kid, before the kit knows it, next to the current one.
    const next = await update(s, { jwks: jwksFile(jwksOf(v3, v2)), kids: ["rnwy-trust-v2"], forceKids: ["rnwy-trust-v3"] });
    expect(next.changes.map((c) => [c.kid, c.kind])).toEqual([
      ["rnwy-trust-v3", "set"],
      ["rnwy-trust-v2", "set"],
    ]);
    expect(next.lines.filter((line) => line.startsWith("! "))).toEqual([
      '! signing key "rnwy-trust-v3" is forced: "rnwy-trust-v3" is not a trust-check kid whose block the on-chain reader reads; the oracle will accept trust records it signs',
    ]);
  });

  test("a JWKS without any on-chain trust kid is an error naming the kids it has", async () => {
    const s = await setup();
    const file = jwksFile(jwksOf(v1, wallet));
    await expect(update(s, { jwks: file })).rejects.toMatchObject({
      reason: "bad-jwks",
      shortMessage: `The JWKS ${file} has no on-chain trust kid ("rnwy-trust-v2"); its kids: "rnwy-trust-v1", "rnwy-wallet-v1". Install another by name with --force-kid <kid> (attestedOracle.forceKids)`,
    });
  });
});

describe("a key id names one key for life", () => {
  test("a kid held with other coordinates than the JWKS's is refused before any transaction, naming both keys", async () => {
    const s = await setup();
    await update(s, { jwks: jwksFile(jwksOf(v2, v1)), kids: ["rnwy-trust-v2"], forceKids: ["rnwy-trust-v1"] });
    const rotated = await generateSigningKey("rnwy-trust-v2");
    const before = await blockNumber(s);
    const refused = update(s, { jwks: jwksFile(jwksOf(rotated)), revoke: ["rnwy-trust-v1"] });
    await expect(refused).rejects.toMatchObject({
      reason: "key-id-reused",
      shortMessage: `The oracle ${s.oracle} holds "rnwy-trust-v2" as (x ${coordinateHex(v2.publicJwk.x)}, y ${coordinateHex(v2.publicJwk.y)}), but the JWKS publishes it as (x ${coordinateHex(rotated.publicJwk.x)}, y ${coordinateHex(rotated.publicJwk.y)}): a key id names one key for its whole life, so it cannot be replaced: revoke "rnwy-trust-v2" (--revoke rnwy-trust-v2) and install the service's new kid`,
    });
    expect(await blockNumber(s)).toBe(before);
    expect(await held(s, "rnwy-trust-v2")).toEqual({ x: coordinateHex(v2.publicJwk.x), y: coordinateHex(v2.publicJwk.y), revoked: false });
    expect((await held(s, "rnwy-trust-v1")).revoked).toBe(false);
  });

  test('a JWK whose x is 0 (a point of P-256, but the oracle\'s "no key") is refused', async () => {
    const s = await setup();
    // y² = b mod p: the curve point with x = 0.
    const zeroX = {
      kty: "EC",
      crv: "P-256",
      kid: "rnwy-trust-v2",
      x: Buffer.alloc(32).toString("base64url"),
      y: Buffer.from("66485c780e2f83d72433bd5d84a06bb6541c2af31dae871728bf856a174f93f4", "hex").toString("base64url"),
    };
    const before = await blockNumber(s);
    const file = jwksFile({ keys: [zeroX] });
    await expect(update(s, { jwks: file })).rejects.toMatchObject({
      reason: "bad-jwks",
      shortMessage: `JWKS entry "rnwy-trust-v2" has x = 0, which an AttestedTrustOracle reads as "no key held": it cannot hold this key (JWKS ${file})`,
    });
    expect(await blockNumber(s)).toBe(before);
  });
});

describe("key sources", () => {
  test("on mainnet, an http JWKS of another host is refused before any fetch, even confirmed; loopback http is allowed", async () => {
    const s = await setup(8453);
    const fetched: string[] = [];
    const fetchSpy = (async (input: string | URL | Request) => {
      fetched.push(String(input));
      return new Response(JSON.stringify(jwksOf(v2)), { headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    for (const dryRun of [false, true]) {
      const refused = update(s, {
        jwks: "http://jwks.example.net/.well-known/jwks.json",
        confirmMainnet: true,
        dryRun,
        jwksFetch: { fetch: fetchSpy },
      });
      await expect(refused).rejects.toMatchObject({
        reason: "insecure-jwks",
        shortMessage:
          "Refusing the JWKS http://jwks.example.net/.well-known/jwks.json over plain http for mainnet (chain 8453): anyone on the network path could substitute their own key; use https, or a saved copy checked against the service's (--jwks <file>)",
      });
    }
    for (const url of ["http://127.0.0.1.example.net/jwks.json", "http://0.0.0.0:8080/jwks.json", "http://10.0.0.1/jwks.json"]) {
      await expect(update(s, { jwks: url, dryRun: true, jwksFetch: { fetch: fetchSpy } })).rejects.toMatchObject({
        reason: "insecure-jwks",
      });
    }
    expect(fetched).toEqual([]);
    // Loopback forms: fetched (here by the stand-in fetch).
    for (const url of ["http://[::1]:8080/jwks.json", "http://127.8.9.10/jwks.json", "http://LOCALHOST./jwks.json"]) {
      expect((await update(s, { jwks: url, dryRun: true, jwksFetch: { fetch: fetchSpy } })).changes.map((c) => c.kind)).toEqual(["set"]);
    }
    expect(fetched).toHaveLength(3);
    fetched.length = 0;
    const server = await serve(jwksOf(v2));
    expect((await update(s, { jwks: server.jwksUrl, confirmMainnet: true })).transactionsSent).toBe(1);
  });

  test("on a test chain, an http JWKS of another host is allowed", async () => {
    const s = await setup(84532);
    const fetched: string[] = [];
    const fetchSpy = (async (input: string | URL | Request) => {
      fetched.push(String(input));
      return new Response(JSON.stringify(jwksOf(v2)), { headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    const result = await update(s, { jwks: "http://jwks.example.net/.well-known/jwks.json", dryRun: true, jwksFetch: { fetch: fetchSpy } });
    expect(result.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-trust-v2", "set"]]);
    expect(fetched).toEqual(["http://jwks.example.net/.well-known/jwks.json"]);
  });

  test("pinned thumbprints: a match installs, a mismatch or a pin for a kid not installed is refused before any transaction", async () => {
    const s = await setup();
    const file = jwksFile(jwksOf(...service.published));
    const before = await blockNumber(s);
    const other = await thumbprintOf(v1);
    const mismatch = update(s, { jwks: file, thumbprints: { "rnwy-trust-v2": other } });
    await expect(mismatch).rejects.toMatchObject({
      reason: "thumbprint-mismatch",
      shortMessage: `The JWKS ${file} publishes "rnwy-trust-v2" with thumbprint ${await thumbprintOf(v2)}, not the pinned ${other}: refusing to install it`,
    });
    await expect(
      update(s, { jwks: file, thumbprints: { "rnwy-trust-v2": await thumbprintOf(v2), "rnwy-mcp-v1": other } }),
    ).rejects.toMatchObject({
      reason: "refused-kid",
      shortMessage: 'A thumbprint is pinned for "rnwy-mcp-v1", which is not among the kids to install',
    });
    await expect(update(s, { jwks: file, thumbprints: { "rnwy-trust-v2": "not-a-thumbprint" } })).rejects.toMatchObject({
      reason: "refused-kid",
    });
    expect(await blockNumber(s)).toBe(before);
    const pinned = await update(s, { jwks: file, thumbprints: { "rnwy-trust-v2": await thumbprintOf(v2) } });
    expect(pinned.changes.map((c) => [c.kid, c.kind, c.thumbprint])).toEqual([["rnwy-trust-v2", "set", await thumbprintOf(v2)]]);
  });
});

describe("revoking", () => {
  test("revokes a kid (final), a second revocation is a no-op, and a JWKS that still publishes it does not set it again", async () => {
    const s = await setup();
    const file = jwksFile(jwksOf(v3, v2));
    await update(s, { jwks: file, kids: ["rnwy-trust-v2"], forceKids: ["rnwy-trust-v3"] });
    const revoked = await update(s, { revoke: ["rnwy-trust-v2"] });
    expect(revoked.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-trust-v2", "revoke"]]);
    expect(revoked.transactionsSent).toBe(1);
    expect(await held(s, "rnwy-trust-v2")).toEqual({ x: ZERO, y: ZERO, revoked: true });
    expect((await held(s, "rnwy-trust-v3")).revoked).toBe(false);

    const again = await update(s, { revoke: ["rnwy-trust-v2"] });
    expect(again.changes.map((c) => c.kind)).toEqual(["already-revoked"]);
    expect(again.transactionsSent).toBe(0);

    // The default selection: the revoked kid is skipped and said.
    const all = await update(s, { jwks: file });
    expect(all.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-trust-v2", "revoked-skipped"]]);
    expect(all.transactionsSent).toBe(0);
    expect(all.lines).toContain('! signing key "rnwy-trust-v2" is revoked on this oracle: not set again (revocation is final)');
    // Asked for by name: an error.
    await expect(update(s, { jwks: file, kids: ["rnwy-trust-v2"] })).rejects.toMatchObject({ reason: "revoked-key" });
    await expect(update(s, { jwks: file, kids: ["rnwy-trust-v2"] })).rejects.toThrow(/revocation is final, so it cannot be set again/);
  });

  test("rotation in one run: the new key is set before the old kid is revoked; errors for an unknown kid and a kid both set and revoked", async () => {
    const s = await setup();
    const server = await serve(jwksOf(v2));
    await update(s, { jwks: server.jwksUrl });
    // The service publishes its next trust kid; the kit does not know it yet.
    server.setKeys(jwksOf(v3, v2));
    const rotation = await update(s, { jwks: server.jwksUrl, forceKids: ["rnwy-trust-v3"], revoke: ["rnwy-trust-v2"] });
    expect(rotation.changes.map((c) => [c.kid, c.kind])).toEqual([
      ["rnwy-trust-v3", "set"],
      ["rnwy-trust-v2", "revoke"],
    ]);
    expect((await held(s, "rnwy-trust-v3")).x).toBe(coordinateHex(v3.publicJwk.x));
    expect((await held(s, "rnwy-trust-v2")).revoked).toBe(true);

    const before = await blockNumber(s);
    await expect(update(s, { revoke: ["rnwy-mcp-v1"] })).rejects.toMatchObject({
      reason: "unknown-key",
      shortMessage: `Cannot revoke "rnwy-mcp-v1": the oracle ${s.oracle} holds no key with that id`,
    });
    await expect(update(s, { jwks: server.jwksUrl, forceKids: ["rnwy-trust-v3"], revoke: ["rnwy-trust-v3"] })).rejects.toMatchObject({
      reason: "bad-config",
      shortMessage: 'Key id "rnwy-trust-v3" is both to set (--kid) and to revoke (--revoke): pick one',
    });
    expect(await blockNumber(s)).toBe(before);
  });
});

describe("dry run and the sender", () => {
  test("a dry run needs no key, sends nothing and prints set / already set / revoke", async () => {
    // A non-local network: the sender would come from DEPLOYER_PRIVATE_KEY, which is not set.
    const s = await setup(84532);
    await update(s, {
      jwks: jwksFile(jwksOf(v2, wallet)),
      kids: ["rnwy-trust-v2"],
      forceKids: ["rnwy-wallet-v1"],
      env: { DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0 },
    });
    const before = await blockNumber(s);
    const nonces = await Promise.all(s.accounts.slice(0, 3).map((a) => nonceOf(s.chain.provider, a)));
    const lines: string[] = [];
    const dry = await updateSigningKeys({
      provider: s.chain.provider,
      oracle: s.oracle,
      network: "baseSepolia",
      expectedChainId: 84532,
      jwks: jwksFile(jwksOf(v3, v2, wallet)),
      kids: ["rnwy-trust-v2"],
      forceKids: ["rnwy-trust-v3"],
      revoke: ["rnwy-wallet-v1"],
      dryRun: true,
      env: {},
      log: (line) => lines.push(line),
    });
    expect(dry.dryRun).toBe(true);
    expect(dry.sender).toBeUndefined();
    expect(dry.changes.map((c) => [c.kid, c.kind])).toEqual([
      ["rnwy-trust-v3", "set"],
      ["rnwy-trust-v2", "unchanged"],
      ["rnwy-wallet-v1", "revoke"],
    ]);
    expect(dry.transactionsSent).toBe(0);
    expect(lines).toContain("No DEPLOYER_PRIVATE_KEY: the sender's admin role is not checked");
    // Each key's thumbprint, to pin it.
    expect(lines).toContain(
      `+ would set signing key "rnwy-trust-v3" (x ${coordinateHex(v3.publicJwk.x)}, y ${coordinateHex(v3.publicJwk.y)}, thumbprint ${await thumbprintOf(v3)})`,
    );
    expect(lines).toContain(`= signing key "rnwy-trust-v2" already set with the same coordinates (thumbprint ${await thumbprintOf(v2)})`);
    expect(lines).toContain('- would revoke signing key "rnwy-wallet-v1"');
    expect(lines.at(-1)).toBe("Dry run: nothing sent; 2 signing-key change(s) would be made.");
    expect(await blockNumber(s)).toBe(before);
    expect(await Promise.all(s.accounts.slice(0, 3).map((a) => nonceOf(s.chain.provider, a)))).toEqual(nonces);
    expect((await held(s, "rnwy-trust-v3")).x).toBe(ZERO);
    expect((await held(s, "rnwy-wallet-v1")).revoked).toBe(false);

    // The same run for real needs the key.
    await expect(
      updateSigningKeys({ provider: s.chain.provider, oracle: s.oracle, network: "baseSepolia", jwks: jwksFile(jwksOf(v2)), env: {} }),
    ).rejects.toMatchObject({
      reason: "missing-key",
      shortMessage:
        "DEPLOYER_PRIVATE_KEY is not set: changing the signing keys on baseSepolia (chain 84532) needs the private key of the oracle's admin",
    });
  });

  test("signs with DEPLOYER_PRIVATE_KEY on a non-local network; a sender without the admin role is refused before sending", async () => {
    const s = await setup(84532);
    const file = jwksFile(jwksOf(v2));
    const stranger = generatePrivateKey();
    const strangerAddress = privateKeyToAccount(stranger).address;
    const before = await blockNumber(s);
    const refused = updateSigningKeys({
      provider: s.chain.provider,
      oracle: s.oracle,
      network: "baseSepolia",
      jwks: file,
      env: { DEPLOYER_PRIVATE_KEY: stranger },
    });
    await expect(refused).rejects.toBeInstanceOf(DeploymentError);
    await expect(refused).rejects.toMatchObject({
      reason: "not-admin",
      shortMessage: `${strangerAddress} is not an admin of the AttestedTrustOracle ${s.oracle} on baseSepolia (chain 84532): only an account holding DEFAULT_ADMIN_ROLE can set or revoke signing keys`,
    });
    await expect(refused).rejects.toThrow(/grantRole\(0x0{64}, /);
    // Also in a dry run with that key: the plan could not be carried out.
    await expect(
      updateSigningKeys({
        provider: s.chain.provider,
        oracle: s.oracle,
        jwks: file,
        dryRun: true,
        env: { DEPLOYER_PRIVATE_KEY: stranger },
      }),
    ).rejects.toMatchObject({ reason: "not-admin" });
    expect(await blockNumber(s)).toBe(before);
    expect((await held(s, "rnwy-trust-v2")).x).toBe(`0x${"0".repeat(64)}`);

    // The admin's key (the node's first account) installs it, signing locally.
    const done = await updateSigningKeys({
      provider: s.chain.provider,
      oracle: s.oracle,
      jwks: file,
      env: { DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0 },
    });
    expect(done.sender).toBe(privateKeyToAccount(HARDHAT_KEY_0).address);
    expect(done.transactionsSent).toBe(1);
    expect((await held(s, "rnwy-trust-v2")).x).toBe(coordinateHex(v2.publicJwk.x));
  });

  test("on a local network the sender is the unlocked account that holds the admin role", async () => {
    const chain = await startLocalChain({ chainId: 31337 });
    cleanups.push(chain.close);
    const accounts = (await chain.provider.request({ method: "eth_accounts" })) as Address[];
    const admin = getAddress(accounts[4]!);
    const oracle = await deployAttestedOracle(chain.provider, accounts[0]!, admin);
    const result = await updateSigningKeys({ provider: chain.provider, oracle, local: true, jwks: jwksFile(jwksOf(v2)) });
    expect(result.sender).toBe(admin);
    expect(result.transactionsSent).toBe(1);
  });
});

describe("refusals", () => {
  test("a JWKS entry to install that is not an EC P-256 ES256 signing key is refused, naming its kid; one not selected is left out", async () => {
    const s = await setup();
    const p384 = { ...(await exportJWK((await generateKeyPair("ES384", { extractable: true })).publicKey)), kid: "p384-key" };
    const rsa = { ...(await exportJWK((await generateKeyPair("RS256", { extractable: true })).publicKey)), kid: "rsa-key", alg: "RS256" };
    const cases: [JWK, RegExp][] = [
      [p384, /JWKS entry "p384-key" not an EC P-256 key \(kty EC, crv P-384\)/],
      [rsa, /JWKS entry "rsa-key" not an EC P-256 key \(kty RSA/],
      [{ ...v1.publicJwk, alg: "ES384" }, /JWKS entry "rnwy-trust-v1" is published for alg ES384, not ES256/],
      [{ ...v1.publicJwk, use: "enc" }, /JWKS entry "rnwy-trust-v1" is published for use "enc", not "sig"/],
      [{ ...v1.publicJwk, x: Buffer.alloc(32, 7).toString("base64url") }, /JWKS entry "rnwy-trust-v1" is not a valid P-256 public key/],
    ];
    const before = await blockNumber(s);
    for (const [bad, message] of cases) {
      const file = jwksFile({ keys: [v2.publicJwk, bad] });
      const attempt = update(s, { jwks: file, kids: ["rnwy-trust-v2"], forceKids: [bad.kid!] });
      await expect(attempt).rejects.toMatchObject({ reason: "bad-jwks" });
      await expect(attempt).rejects.toThrow(message);
      await expect(attempt).rejects.toThrow(`(JWKS ${file})`);
    }
    expect(await blockNumber(s)).toBe(before);
    expect((await held(s, "rnwy-trust-v2")).x).toBe(`0x${"0".repeat(64)}`);
    // Not selected (the default takes only the on-chain trust kids): left out.
    const picked = await update(s, { jwks: jwksFile({ keys: [v2.publicJwk, rsa, { ...v1.publicJwk, alg: "ES384" }] }) });
    expect(picked.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-trust-v2", "set"]]);
  });

  test("a JWKS that is not one, and a kid published twice with different keys", async () => {
    const s = await setup();
    const missing = join(tmpdir(), "trustgate-no-such-dir", "jwks.json");
    await expect(update(s, { jwks: missing })).rejects.toMatchObject({
      reason: "bad-jwks",
      shortMessage: `Cannot read the JWKS file ${missing} (ENOENT): give an existing file or an http(s) URL`,
    });
    const notJson = jwksFile("<html>");
    await expect(update(s, { jwks: notJson })).rejects.toThrow(`The JWKS file ${notJson} is not valid JSON`);
    const notJwks = jwksFile({ kid: "x" });
    await expect(update(s, { jwks: notJwks })).rejects.toThrow(`The JWKS file ${notJwks} is not a JWKS (expected {"keys": [...]})`);
    await expect(update(s, { jwks: jwksFile({ keys: [] }) })).rejects.toThrow(/The JWKS has no keys/);
    await expect(update(s, { jwks: "ftp://127.0.0.1/jwks.json" })).rejects.toThrow(
      'The JWKS URL must be http(s): "ftp://127.0.0.1/jwks.json"',
    );
    const twin = await generateSigningKey("rnwy-trust-v2");
    const twice = jwksFile(jwksOf(v2, twin));
    await expect(update(s, { jwks: twice })).rejects.toThrow(`The JWKS ${twice} publishes two different keys with kid "rnwy-trust-v2"`);
    // The same entry twice is one key.
    const same = await update(s, { jwks: jwksFile(jwksOf(v2, v2)) });
    expect(same.changes.map((c) => c.kind)).toEqual(["set"]);
  });

  test("an address that is not an attested oracle, and a chain that is not the configured one", async () => {
    const s = await setup();
    const nobody = getAddress("0x00000000000000000000000000000000000abcde");
    await expect(update(s, { oracle: nobody, jwks: jwksFile(jwksOf(v2)) })).rejects.toMatchObject({
      reason: "no-code",
      shortMessage: `There is no contract at ${nobody} on chain 31337`,
    });
    await expect(update(s, { oracle: "0x1234" as Address, jwks: jwksFile(jwksOf(v2)) })).rejects.toMatchObject({
      reason: "bad-config",
      shortMessage: 'Invalid oracle address "0x1234": expected 0x followed by 40 hex digits',
    });
    // A mixed-case address is checked as every address a user gives: a wrong EIP-55 checksum is a typo, refused.
    const typo = s.oracle.replace(/[a-f]/, (c) => c.toUpperCase()) as Address;
    await expect(update(s, { oracle: typo, jwks: jwksFile(jwksOf(v2)) })).rejects.toMatchObject({
      reason: "bad-config",
      shortMessage: `Invalid oracle address "${typo}": the EIP-55 checksum does not match`,
    });
    // The oracle's upstream-less read ABI is not enough: a contract without signingKey is refused.
    await s.chain.provider.request({ method: "hardhat_setCode", params: [nobody, "0x60006000f3"] });
    await expect(update(s, { oracle: nobody, jwks: jwksFile(jwksOf(v2)) })).rejects.toMatchObject({ reason: "not-attested-oracle" });
    await expect(update(s, { jwks: jwksFile(jwksOf(v2)), expectedChainId: 8453, network: "base" })).rejects.toMatchObject({
      reason: "chain-mismatch",
      shortMessage: 'The RPC endpoint is chain 31337, but network "base" is configured as chain 8453',
    });
    await expect(update(s, {})).rejects.toThrow("Nothing to do: give a JWKS (--jwks <url|file>) and/or key ids to revoke (--revoke <kid>)");
  });

  test("Base mainnet needs confirmMainnet to change keys (a dry run does not)", async () => {
    const s = await setup(8453);
    const file = jwksFile(jwksOf(v2));
    await expect(update(s, { jwks: file })).rejects.toMatchObject({
      reason: "mainnet-not-confirmed",
      shortMessage: "Refusing to change signing keys on mainnet (chain 8453) without --confirm-mainnet",
    });
    expect((await update(s, { jwks: file, dryRun: true })).changes.map((c) => c.kind)).toEqual(["set"]);
    expect((await update(s, { jwks: file, confirmMainnet: true })).transactionsSent).toBe(1);
  });

  test("unreachable JWKS URL and unreachable node: one line, with what to do; a JWKS server that never answers times out", async () => {
    const s = await setup();
    const url = await unreachableJwksUrl();
    const error = (await update(s, { jwks: url }).catch((e: unknown) => e)) as DeploymentError;
    expect(error).toBeInstanceOf(DeploymentError);
    expect(error.reason).toBe("jwks-unavailable");
    expect(error.message).not.toContain("\n");
    expect(error.message).toMatch(
      new RegExp(
        `^Cannot fetch the JWKS ${url.replace(/\./g, "\\.")} \\(fetch failed \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${new URL(url).port}\\)\\): check the URL and that the service is up, or save the JWKS to a file and pass --jwks <file>$`,
      ),
    );

    const server = await serve(jwksOf(v2));
    server.setMode("hang");
    await expect(loadJwks(server.jwksUrl, { timeoutMs: 300 })).rejects.toThrow(
      `Cannot fetch the JWKS ${server.jwksUrl} (timed out after 300 ms): check the URL`,
    );
    server.setMode("error");
    await expect(loadJwks(server.jwksUrl)).rejects.toThrow(`Cannot fetch the JWKS ${server.jwksUrl} (HTTP 500)`);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const rpcUrl = `http://127.0.0.1:${port}`;
    const node = (await updateSigningKeys({
      provider: http(rpcUrl, { retryCount: 0 })({}),
      rpcUrl,
      network: "localhost",
      local: true,
      oracle: s.oracle,
      jwks: jwksFile(jwksOf(v2)),
    }).catch((e: unknown) => e)) as DeploymentError;
    expect(node.reason).toBe("unreachable");
    expect(node.message).not.toContain("\n");
    expect(node.message).toMatch(
      new RegExp(`^Cannot reach the localhost node at ${rpcUrl.replace(/\./g, "\\.")} \\(.+\\): start one with \`npx hardhat node\``),
    );
  });

  test("without an oracle address and none recorded for the chain: an error naming the deployments file", async () => {
    const s = await setup();
    const dir = tempDeploymentsDir();
    await expect(update(s, { oracle: undefined, deploymentsDir: dir, jwks: jwksFile(jwksOf(v2)) })).rejects.toThrow(
      `No --oracle given and ${join(dir, "31337.json")} records no AttestedTrustOracle: pass --oracle <address>`,
    );
  });
});
