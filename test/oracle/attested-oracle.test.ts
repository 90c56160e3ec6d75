/**
 * The viem side of the attested oracle: installing the service's keys from its JWKS and submitting a
 * `/api/trust-check` response as the service publishes it (v2 block, `sig` + `jws`: the JWS form first; or a `sig` alone), against a
 * real `AttestedTrustOracle` on Hardhat's network. Refusals surface as the contract's decoded custom errors.
 */
import hre from "hardhat";
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type PublicClient,
} from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { signingKeyArgsOf, signingKeyArgsOfJwks } from "../../src/attestation/onchain-keys.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { type AttestationSigningKey, generateSigningKey } from "../../src/harness/signing.js";
import { revertDecodingTransport } from "../../src/harness/testing/index.js";
import { attestedTrustOracleAbi } from "../../src/oracle/abi.js";
import { type AttestedOracleClients, setTrustSigningKeys, submitTrustAttestation } from "../../src/oracle/attested-oracle.js";
import { AttestedTrustOracle__factory } from "../../typechain-types";
import { buildTrustCheckResponse, jwksOf } from "../support/attestations.js";
import { latestTimestamp } from "../support/fixtures.js";

let v2: AttestationSigningKey;
let rogue: AttestationSigningKey;
let oracle: `0x${string}`;
let admin: AttestedOracleClients;
let stranger: AttestedOracleClients;

function clientsFor(address: string, chain: ReturnType<typeof defineChain>): AttestedOracleClients {
  const transport = revertDecodingTransport(hre.network.provider);
  return {
    wallet: createWalletClient({ chain, transport, account: getAddress(address) }),
    public: createPublicClient({ chain, transport }) as PublicClient,
  };
}

async function freshResponse(key: AttestationSigningKey, score: number, hoursAgo = 2) {
  const now = (await latestTimestamp()) * 1000;
  return buildTrustCheckResponse(key, {
    agent: { agentId: 4242, score, tier: score >= 75 ? "established" : "developing", sybilSeverity: null },
    issuedAt: new Date(now - hoursAgo * 3_600_000),
    verifiedAt: new Date(now - 60_000),
  });
}

beforeAll(async () => {
  [v2, rogue] = await Promise.all([generateSigningKey("rnwy-trust-v2"), generateSigningKey("rnwy-trust-v2")]);
  const [first, second] = await hre.ethers.getSigners();
  const deployed = await new AttestedTrustOracle__factory(first!).deploy(first!.address, hre.ethers.ZeroAddress);
  oracle = getAddress(await deployed.getAddress());
  const chainId = Number(await hre.network.provider.request({ method: "eth_chainId" }));
  const chain = defineChain({
    id: chainId,
    name: "hardhat",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  admin = clientsFor(first!.address, chain);
  stranger = clientsFor(second!.address, chain);
});

describe("signingKeyArgsOf", () => {
  it("turns a JWKS entry into 32-byte coordinates, and refuses entries that are not ES256 keys", async () => {
    const args = signingKeyArgsOf(v2.publicJwk);
    expect(args.kid).toBe("rnwy-trust-v2");
    expect(args.x).toBe(`0x${Buffer.from(v2.publicJwk.x!, "base64url").toString("hex")}`);
    expect(args.x).toMatch(/^0x[0-9a-f]{64}$/);
    expect(() => signingKeyArgsOf({ ...v2.publicJwk, crv: "P-384" })).toThrow(InvalidArgumentError);
    expect(() => signingKeyArgsOf({ ...v2.publicJwk, alg: "HS256" })).toThrow(/not ES256/);
    expect(() => signingKeyArgsOfJwks({ keys: [v2.publicJwk] }, ["rnwy-wallet-v1"])).toThrow(/no key "rnwy-wallet-v1"/);
    expect(() => signingKeyArgsOfJwks({ keys: [] })).toThrow(/no keys/);
  });
});

describe("setTrustSigningKeys / submitTrustAttestation", () => {
  it("installs the JWKS keys once (a second run changes nothing) and refuses a caller who is not the admin", async () => {
    const keys = signingKeyArgsOfJwks(jwksOf(v2));
    expect((await setTrustSigningKeys(admin, oracle, keys)).map((r) => r.outcome)).toEqual(["set"]);
    expect((await setTrustSigningKeys(admin, oracle, keys)).map((r) => r.outcome)).toEqual(["unchanged"]);
    const other = signingKeyArgsOf((await generateSigningKey("rnwy-trust-v9")).publicJwk);
    const refused = await setTrustSigningKeys(stranger, oracle, [other]).catch((error: unknown) => error);
    expect(revertName(refused)).toBe("AccessControlUnauthorizedAccount");
  });

  it("submits a published v2 response (the jws form, first), and the oracle then answers its signed values", async () => {
    const response = await freshResponse(v2, 81);
    const hash = await submitTrustAttestation(admin, oracle, response);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const [score, tier, sybil, updatedAt] = await admin.public.readContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "getScore",
      args: [4242n, 8453n, "erc8004"],
    });
    expect([score, tier, sybil]).toEqual([81, 3, 0]);
    expect(updatedAt).toBe(Math.floor(Date.parse(String(response.attestation.signed.issuedAt)) / 1000));
  });

  it("submits a response that carries only a raw sig (submitAttestation)", async () => {
    const response = await freshResponse(v2, 70, 1);
    delete response.attestation.jws;
    await submitTrustAttestation(admin, oracle, response);
    const [score] = await admin.public.readContract({
      address: oracle,
      abi: attestedTrustOracleAbi,
      functionName: "getScore",
      args: [4242n, 8453n, "erc8004"],
    });
    expect(score).toBe(70);
  });

  it("surfaces a refusal as the contract's custom error before sending: a signature by another key", async () => {
    const forged = await freshResponse(rogue, 95, 0.5);
    const refused = await submitTrustAttestation(admin, oracle, forged).catch((error: unknown) => error);
    expect(revertName(refused)).toBe("InvalidAttestationSignature");
  });
});

function revertName(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
}
