/**
 * Whether the service's signed attestation could refresh a stale, missing or drifted on-chain record through an
 * `AttestedTrustOracle` (the pull model: whoever needs a fresh record submits the signed attestation). Three parts,
 * used by three stages:
 *
 * - {@link submissionOf} (fetch and verify): whether a verified attestation can be submitted as it is — it is a v2
 *   block and `toAttestationCall` accepts it: the JWS form whenever the response carries a JWS (its header by the
 *   oracle's general rules, any member order, `typ` allowed), the `sig` form over the bytes that verified otherwise;
 * - {@link readAttestedOracleFacts} (before compare, only with an attested oracle): what the oracle holds under the
 *   kids seen (compared with the JWKS's coordinates) and which chain id it gives each chain slug seen, one read of
 *   each at the run's pinned block;
 * - {@link assessRefresh} (compare): the row's `refresh`, with the first blocker in the order of
 *   `REFRESH_BLOCKERS` — the order of the brief and, for the oracle's own checks, of the contract's.
 *
 * Only a signed attestation that verified is ever assessed: the unsigned listing and an invalid attestation never
 * are. The assessment is informational: it changes neither the row's status nor the exit code.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { readContract } from "viem/actions";
import { toAttestationCall } from "../../attestation/onchain-call.js";
import { ORACLE_CHAIN_SLUGS } from "../../config/chains.js";
import { signingKeyArgsOf } from "../../attestation/onchain-keys.js";
import type { JwksResolver } from "../../attestation/jwks.js";
import { DEFAULT_CLOCK_SKEW_SECONDS } from "../../attestation/options.js";
import type { TrustAttestationVerification } from "../../attestation/result.js";
import { messageOf } from "../../errors.js";
import { isRecord } from "../../util/is-record.js";
import { attestedTrustOracleAbi } from "../../generated/abis.js";
import type { AnyClient } from "../../oracle/client.js";
import type { AttestationSubmission, ServiceOutcome } from "../service-data.js";
import type { RefreshBlocker, RefreshKeyStatus, RowRefresh } from "../types.js";

/**
 * Whether a verified trust-check attestation can be submitted to an `AttestedTrustOracle` as it is.
 *
 * @param body - The `/api/trust-check` response body that verified.
 * @param verdict - Its verdict (valid): its version, the attestation it verified, its kid, and which bytes its raw
 *   `sig` verified over.
 * @returns The call's form (`jws` when the response carries a JWS, else `sig`), or the problem: not a v2 block (the
 *   oracle reads `issuedAt`, `verifiedAt` and `expiry`), or `toAttestationCall` refuses it (a JWS header the oracle
 *   refuses, signed bytes its reader refuses, …).
 */
export function submissionOf(
  body: unknown,
  verdict: Pick<TrustAttestationVerification, "version" | "source" | "kid" | "sigBytes">,
): AttestationSubmission {
  if (verdict.version !== "v2") {
    return {
      ok: false,
      problem: `a ${verdict.version ?? "unrecognised"} signed block: the attested oracle reads v2 blocks (issuedAt, verifiedAt, expiry) only`,
    };
  }
  const attestation = verdict.source === "attestationV1" && isRecord(body) ? body.attestationV1 : body;
  let call: ReturnType<typeof toAttestationCall>;
  try {
    // The chain slug is judged by assessRefresh (chain-not-accepted): against the named attested oracle's own table,
    // which its admin may have extended, else against the table it is deployed with.
    call = toAttestationCall(attestation, verdict, { chainSlugs: "unchecked" });
  } catch (error) {
    return { ok: false, problem: messageOf(error) };
  }
  if (verdict.kid !== undefined && call.kid !== verdict.kid) {
    return { ok: false, problem: `the attestation names kid "${call.kid}" but verified under "${verdict.kid}"` };
  }
  return { ok: true, form: call.form };
}

/** What an attested oracle holds under one kid, compared with the JWKS. */
export interface AttestedKeyCheck {
  /** `installed` (the JWKS's key), `not-installed`, `revoked`, `mismatch` (another key) or `unreadable`. */
  readonly status: Exclude<RefreshKeyStatus, "unchecked">;
  /** Why, for `unreadable`. */
  readonly detail?: string;
}

/** What the refresh assessment needs to know about the attested oracle (read by {@link readAttestedOracleFacts}). */
export interface AttestedOracleFacts {
  /** The attested oracle. */
  readonly address: Address;
  /** Per kid: what the oracle holds under it. A kid absent here reads as `unreadable`. */
  readonly keys: ReadonlyMap<string, AttestedKeyCheck>;
  /** Per chain slug: the chain id the oracle gives it (0: none), or `null` when it could not be read. */
  readonly chainIds: ReadonlyMap<string, number | null>;
}

/** What {@link readAttestedOracleFacts} needs. */
export interface ReadAttestedOracleFactsOptions {
  /** Kids of the verified attestations. */
  readonly kids: Iterable<string>;
  /** Chain slugs of their agents. */
  readonly chains: Iterable<string>;
  /** The JWKS the attestations verified against (the coordinates each installed key must have). */
  readonly jwks: JwksResolver;
  /** Block to read at; default the latest. */
  readonly blockNumber?: bigint;
}

/**
 * Reads, from an `AttestedTrustOracle`, the key under each kid (`signingKey`) and the chain id of each chain slug
 * (`chainIdOfSlug`), one call each; compares each key with the JWKS entry of its kid. Never throws: a failed read
 * is an `unreadable` key or a `null` chain id.
 *
 * @param client - A viem client of the oracle's chain.
 * @param attestedOracle - The attested oracle.
 * @param options - Kids, chain slugs, JWKS and block.
 * @returns The facts.
 */
export async function readAttestedOracleFacts(
  client: AnyClient,
  attestedOracle: Address,
  options: ReadAttestedOracleFactsOptions,
): Promise<AttestedOracleFacts> {
  const at = options.blockNumber === undefined ? {} : { blockNumber: options.blockNumber };
  const keys = new Map<string, AttestedKeyCheck>();
  const chainIds = new Map<string, number | null>();
  await Promise.all([
    ...[...new Set(options.kids)].map(async (kid) => {
      keys.set(kid, await checkKey(client, attestedOracle, kid, options.jwks, at));
    }),
    ...[...new Set(options.chains)].map(async (slug) => {
      try {
        const id = await readContract(client, {
          address: attestedOracle,
          abi: attestedTrustOracleAbi,
          functionName: "chainIdOfSlug",
          args: [slug],
          ...at,
        });
        chainIds.set(slug, id > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(id));
      } catch {
        chainIds.set(slug, null);
      }
    }),
  ]);
  return { address: attestedOracle, keys, chainIds };
}

async function checkKey(
  client: AnyClient,
  attestedOracle: Address,
  kid: string,
  jwks: JwksResolver,
  at: { blockNumber?: bigint },
): Promise<AttestedKeyCheck> {
  let held: readonly [string, string, boolean];
  try {
    held = await readContract(client, {
      address: attestedOracle,
      abi: attestedTrustOracleAbi,
      functionName: "signingKey",
      args: [kid],
      ...at,
    });
  } catch (error) {
    return {
      status: "unreadable",
      detail: `signingKey("${kid}") could not be read from the attested oracle (${firstLine(messageOf(error))})`,
    };
  }
  const [x, y, revoked] = held;
  if (revoked) return { status: "revoked" };
  if (/^0x0*$/.test(x)) return { status: "not-installed" };
  const lookup = await jwks.getKey(kid);
  if (!lookup.ok) return { status: "unreadable", detail: `the JWKS entry of kid "${kid}" could not be read (${lookup.message})` };
  let published: { x: string; y: string };
  try {
    published = signingKeyArgsOf(lookup.key.jwk);
  } catch (error) {
    return { status: "unreadable", detail: messageOf(error) };
  }
  const same = x.toLowerCase() === published.x.toLowerCase() && y.toLowerCase() === published.y.toLowerCase();
  return { status: same ? "installed" : "mismatch" };
}

/** One row's inputs to {@link assessRefresh}. */
export interface RefreshInput {
  /** The agent's chain slug and chain id. */
  readonly chain: string;
  readonly chainId: number | null;
  /** `updatedAt` of the record read, Unix seconds; `null` when the oracle holds none. */
  readonly onchainUpdatedAtSeconds: number | null;
  /** The verified attestation. */
  readonly service: Extract<ServiceOutcome, { kind: "verified" }>;
  /** The run's clock. */
  readonly now: Date;
  /** The attested oracle's facts; absent when no attested oracle was named (kids unchecked). */
  readonly attestedOracle?: AttestedOracleFacts | undefined;
}

/**
 * Assesses whether a verified attestation could refresh the record read: the first blocker, in the order of
 * `REFRESH_BLOCKERS` (submittable, not expired, kid installed, chain accepted, newer than the record), or how.
 *
 * @param input - The row's agent, record time, verified attestation, clock and attested oracle facts.
 * @returns The row's `refresh`.
 */
export function assessRefresh(input: RefreshInput): RowRefresh {
  const { service, attestedOracle } = input;
  const kid = service.kid;
  const expiresAt = service.expiresAt instanceof Date && Number.isFinite(service.expiresAt.getTime()) ? service.expiresAt : null;
  const keyCheck: AttestedKeyCheck | undefined = attestedOracle
    ? (attestedOracle.keys.get(kid) ?? { status: "unreadable", detail: `the key of kid "${kid}" was not read from the attested oracle` })
    : undefined;
  const keyStatus: RefreshKeyStatus = keyCheck?.status ?? "unchecked";
  const base = { kid, keyStatus, expiresAt: expiresAt ? expiresAt.toISOString() : null };
  const blocked = (blocker: RefreshBlocker, reason: string): RowRefresh => ({ possible: false, blocker, reason, ...base });

  const submission = service.submission;
  if (!submission) return blocked("not-submittable", "the attestation cannot be submitted on-chain: it was not checked whether it can be");
  if (!submission.ok) return blocked("not-submittable", `the attestation cannot be submitted on-chain: ${submission.problem}`);
  const issuedAt = service.data.computedAt;
  if (!(issuedAt instanceof Date) || !Number.isFinite(issuedAt.getTime()) || issuedAt.getTime() <= 0) {
    return blocked("not-submittable", "the attestation cannot be submitted on-chain: its signed block carries no issuedAt");
  }
  if (expiresAt === null)
    return blocked("not-submittable", "the attestation cannot be submitted on-chain: its signed block carries no expiry");
  const nowSeconds = Math.floor(input.now.getTime() / 1000);
  // The oracle refuses an attestation when the block time is more than its clock skew (`MAX_CLOCK_SKEW`, equal to the
  // verifier's default) after its expiry (whole seconds).
  if (nowSeconds > Math.floor(expiresAt.getTime() / 1000) + DEFAULT_CLOCK_SKEW_SECONDS) {
    return blocked(
      "expired",
      `the attestation (kid "${kid}") expired at ${expiresAt.toISOString()}: the oracle refuses it, ask the service for a fresh one`,
    );
  }
  const oracle = attestedOracle?.address;
  if (keyCheck) {
    switch (keyCheck.status) {
      case "not-installed":
        return blocked(
          "kid-not-installed",
          `kid "${kid}" is not installed on the attested oracle ${oracle}: its admin must install the service's key first (setSigningKey, or setTrustSigningKeys from the JWKS)`,
        );
      case "revoked":
        return blocked(
          "kid-revoked",
          `kid "${kid}" is revoked on the attested oracle ${oracle}: it refuses every attestation signed under it`,
        );
      case "mismatch":
        return blocked(
          "key-mismatch",
          `the attested oracle ${oracle} holds another key under kid "${kid}" than the JWKS publishes: the signature would not verify there`,
        );
      case "unreadable":
        return blocked("key-unreadable", `kid "${kid}" could not be checked: ${keyCheck.detail ?? "unknown reason"}`);
      case "installed":
        break;
    }
  }
  if (attestedOracle) {
    const accepted = attestedOracle.chainIds.get(input.chain);
    if (accepted === undefined || accepted === null) {
      return blocked(
        "chain-not-accepted",
        `the chain id of the chain slug "${input.chain}" could not be read from the attested oracle ${oracle}`,
      );
    }
    if (accepted === 0)
      return blocked("chain-not-accepted", `the attested oracle ${oracle} accepts no chain slug "${input.chain}" (chainIdOfSlug is 0)`);
    if (accepted !== input.chainId) {
      return blocked(
        "chain-not-accepted",
        `the attested oracle ${oracle} maps the chain slug "${input.chain}" to chain id ${accepted}, not ${input.chainId}: the record would be written under another key`,
      );
    }
  }
  if (!attestedOracle && ORACLE_CHAIN_SLUGS.get(input.chain) !== input.chainId) {
    return blocked(
      "chain-not-accepted",
      `the chain slug "${input.chain}" is not one an attested oracle is deployed with (${[...ORACLE_CHAIN_SLUGS.keys()].join(", ")}): it would revert UnknownChainSlug unless its admin added it (name the oracle with --attested-oracle to read its table)`,
    );
  }
  const issuedSeconds = Math.floor(issuedAt.getTime() / 1000);
  const held = input.onchainUpdatedAtSeconds;
  if (held !== null && issuedSeconds <= held) {
    return blocked(
      "not-newer",
      `the attestation's issuedAt ${issuedAt.toISOString()} is not after the on-chain record's updatedAt ${new Date(held * 1000).toISOString()}: submitting it would change nothing`,
    );
  }
  const fn = submission.form === "sig" ? "submitAttestation" : "submitJwsAttestation";
  const than = held === null ? "the oracle holds no record" : `newer than the on-chain record's ${new Date(held * 1000).toISOString()}`;
  const key = keyCheck
    ? `kid "${kid}" installed on the attested oracle ${oracle}`
    : `kid "${kid}" not checked: no attested oracle named (--attested-oracle)`;
  return {
    possible: true,
    reason: `${fn} can refresh it before ${expiresAt.toISOString()}: issuedAt ${issuedAt.toISOString()}, ${than}; ${key}`,
    ...base,
    call: { function: fn, form: submission.form },
  };
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}
