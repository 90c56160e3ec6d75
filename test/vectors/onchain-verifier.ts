/**
 * The on-chain verifier of the vector set: an `AttestedTrustOracle` (over an empty upstream `MockTrustOracle`) on an
 * in-process Hardhat network of its own, holding the test keys of the trust-check kids, that judges one submission
 * at a time at the vector's time.
 *
 * The network starts on {@link CHAIN_START}, before every vector's time, so that fixed times in the past of the
 * machine's clock are still reachable block times. Each submission runs from the same snapshot: a block is mined at
 * the vector's `now`, the submission is executed as a call in that block (the code path of a transaction, nothing
 * kept), and the chain is reverted, so that no vector sees another's record or time.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { ethers } from "ethers";
import hre from "hardhat";
import type { JSONWebKeySet } from "jose";
import { type AttestedTrustOracle, AttestedTrustOracle__factory, MockTrustOracle__factory } from "../../typechain-types";
import { startSideNetwork } from "../support/onchain-attestations";
import type { OnchainRecord, VectorCall } from "./format";

/** The date of the chain's first block: before every vector's time. */
export const CHAIN_START = "2026-01-01T00:00:00.000Z";

/** The Solidity source that declares the `AttestationField` enumeration. */
export const ATTESTATION_FIELD_SOURCE = path.join(__dirname, "../../contracts/interfaces/ITrustAttestationErrors.sol");

/**
 * The members of the contract's `AttestationField` enumeration, in order, named as the signed block names them
 * (`AgentId` is `agentId`): an error's `field` argument is reported by this name.
 *
 * @returns The names.
 */
export function attestationFieldNames(): string[] {
  const source = readFileSync(ATTESTATION_FIELD_SOURCE, "utf8");
  const body = /enum AttestationField \{([^}]*)\}/.exec(source)?.[1];
  if (body === undefined) throw new Error(`no enum AttestationField in ${ATTESTATION_FIELD_SOURCE}`);
  return body
    .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
    .map((name) => name[0]!.toLowerCase() + name.slice(1));
}

/** What the oracle did with a submission. */
export type OnchainVerdict =
  | { accepted: OnchainRecord }
  | {
      /** The custom error's name (`Panic`, `Error`, or `unknown 0x…` for a revert the ABI does not name). */
      error: string;
      /**
       * Its arguments by name: numbers as numbers when exact, else decimal strings; an `AttestationField` by the
       * signed block's field name ({@link attestationFieldNames}).
       */
      args: Record<string, string | number>;
    };

/** The oracle of the vector set. */
export interface VectorOracle {
  /** The contract (its interface names the errors). */
  readonly oracle: AttestedTrustOracle;
  /**
   * Executes a submission at a time and reports what the oracle did.
   *
   * @param call - The submission.
   * @param now - The block time (ISO-8601).
   * @returns The record stored, or the error reverted with.
   */
  submit(call: VectorCall, now: string): Promise<OnchainVerdict>;
}

/**
 * Deploys the oracle and installs the public keys of the given kids from a key set.
 *
 * @param jwks - The key set.
 * @param kids - The kids the oracle holds (the trust-check kids).
 * @returns The oracle, ready to judge submissions.
 */
export async function startVectorOracle(jwks: JSONWebKeySet, kids: readonly string[]): Promise<VectorOracle> {
  const hardhat = hre.config.networks.hardhat;
  const network = await startSideNetwork({ hardfork: hardhat.hardfork, enableRip7212: hardhat.enableRip7212, initialDate: CHAIN_START });
  const admin = network.signers[0]!;
  const upstream = await new MockTrustOracle__factory(admin).deploy();
  const oracle = await new AttestedTrustOracle__factory(admin).deploy(await admin.getAddress(), await upstream.getAddress());
  for (const kid of kids) {
    const jwk = jwks.keys.find((key) => key.kid === kid);
    if (jwk === undefined) continue;
    await (await oracle.setSigningKey(kid, coordinate(jwk.x), coordinate(jwk.y))).wait();
  }
  const provider = network.provider;
  const fieldNames = attestationFieldNames();
  let snapshot = (await provider.send("evm_snapshot", [])) as string;
  let queue: Promise<unknown> = Promise.resolve();

  const judge = async (call: VectorCall, now: string): Promise<OnchainVerdict> => {
    await provider.send("evm_mine", [Math.floor(Date.parse(now) / 1000)]);
    try {
      const record =
        call.function === "submitJwsAttestation"
          ? await oracle.submitJwsAttestation.staticCall(call.kid, Buffer.from(call.jws, "latin1"))
          : await oracle.submitAttestation.staticCall(call.kid, call.signedJson, call.signature);
      return {
        accepted: {
          score: Number(record.score),
          tier: Number(record.tier),
          sybilSeverity: Number(record.sybilSeverity),
          updatedAt: Number(record.updatedAt),
        },
      };
    } catch (error) {
      return revertOf(oracle, error, fieldNames);
    } finally {
      await provider.send("evm_revert", [snapshot]);
      snapshot = (await provider.send("evm_snapshot", [])) as string;
    }
  };

  return {
    oracle,
    submit(call, now) {
      const verdict = queue.then(() => judge(call, now));
      queue = verdict.catch(() => undefined);
      return verdict;
    },
  };
}

/** A base64url JWK coordinate as bytes32 hex. */
function coordinate(value: string | undefined): string {
  return `0x${Buffer.from(value ?? "", "base64url")
    .toString("hex")
    .padStart(64, "0")}`;
}

/** The error a call reverted with, named by the oracle's ABI. */
function revertOf(oracle: AttestedTrustOracle, error: unknown, fieldNames: readonly string[]): OnchainVerdict {
  const data = (error as { data?: unknown }).data;
  if (typeof data !== "string" || !data.startsWith("0x")) throw error;
  const decoded = oracle.interface.parseError(data);
  if (decoded === null) {
    const builtin = ethers.AbiCoder.getBuiltinCallException("call", { data: "0x" }, data);
    if (builtin.revert)
      return {
        error: builtin.revert.name,
        args: Object.fromEntries(builtin.revert.args.map((value: unknown, i: number) => [String(i), plain(value)])),
      };
    return { error: `unknown ${data.slice(0, 10)}`, args: {} };
  }
  const args: Record<string, string | number> = {};
  decoded.fragment.inputs.forEach((input, i) => {
    const value: unknown = decoded.args[i];
    args[input.name] = input.name === "field" && input.baseType === "uint8" ? (fieldNames[Number(value)] ?? String(value)) : plain(value);
  });
  return { error: decoded.name, args };
}

/** An ABI value as JSON: a number when exact, else a string. */
function plain(value: unknown): string | number {
  if (typeof value === "bigint") return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= 0n ? Number(value) : value.toString();
  return String(value);
}
