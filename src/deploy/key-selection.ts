/**
 * Which keys of the service's JWKS go on an `AttestedTrustOracle`, and what each must pass first. Used by
 * `npm run keys` (`signing-keys.ts`) and by the deployment's key install (`attestedOracle.jwks`).
 *
 * One purpose per key: the oracle accepts a trust record signed under any kid it holds, so it holds only the
 * trust-check kids whose signed block the on-chain reader reads ({@link ONCHAIN_TRUST_ATTESTATION_KIDS}). Without a
 * choice, those of them the JWKS publishes are installed; a kid outside that set is refused unless forced by name
 * (`--force-kid`, `attestedOracle.forceKids`), which is how an operator installs the service's next trust kid before
 * the kit knows it. Expected RFC 7638 thumbprints can be pinned per kid (`--thumbprint`,
 * `attestedOracle.thumbprints`): a key whose thumbprint differs is refused.
 *
 * @packageDocumentation
 */
import { calculateJwkThumbprint, type JWK, type JSONWebKeySet } from "jose";
import {
  LEGACY_TRUST_ATTESTATION_KID,
  MCP_ATTESTATION_KID,
  ONCHAIN_TRUST_ATTESTATION_KIDS,
  WALLET_ATTESTATION_KID,
} from "../config/service.js";
import { type SigningKeyArgs, signingKeyArgsOfJwks } from "../attestation/onchain-keys.js";
import { DeploymentError, messageOf } from "../errors.js";

/** Which kids of a JWKS to install, and the thumbprints they must have. */
export interface KeySelection {
  /**
   * Kids to install, each one of {@link ONCHAIN_TRUST_ATTESTATION_KIDS} (or also forced). Default, when neither
   * `kids` nor `forceKids` is given: the on-chain trust kids the JWKS publishes.
   */
  readonly kids?: readonly string[] | undefined;
  /** Kids to install although they are not on-chain trust kids; a warning is printed for each. */
  readonly forceKids?: readonly string[] | undefined;
  /** Expected RFC 7638 JWK thumbprint (base64url SHA-256) of each kid named; every kid named must be installed. */
  readonly thumbprints?: Readonly<Record<string, string>> | undefined;
}

/** A key chosen for installation. */
export interface SelectedSigningKey extends SigningKeyArgs {
  /** Its RFC 7638 JWK thumbprint (SHA-256, base64url). */
  readonly thumbprint: string;
  /** Installed only because it was forced by name (not an on-chain trust kid). */
  readonly forced: boolean;
}

/** A JWKS and where it came from. */
export interface LoadedJwks {
  /** The URL, or the file's absolute path. */
  readonly source: string;
  /** The key set. */
  readonly jwks: JSONWebKeySet;
}

/** The shape of an RFC 7638 SHA-256 thumbprint: 32 bytes in unpadded base64url (43 characters). */
export const JWK_THUMBPRINT_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Why a kid is not one the oracle holds by default.
 *
 * @param kid - A key id outside {@link ONCHAIN_TRUST_ATTESTATION_KIDS}.
 * @returns One clause naming the kid and its purpose.
 */
export function offPurposeReason(kid: string): string {
  switch (kid) {
    case LEGACY_TRUST_ATTESTATION_KID:
      return `"${kid}" signs legacy v1 trust-check blocks, which can never be read on-chain`;
    case WALLET_ATTESTATION_KID:
      return `"${kid}" signs wallet-score attestations, and the oracle would let it sign trust records`;
    case MCP_ATTESTATION_KID:
      return `"${kid}" signs MCP attestations, and the oracle would let it sign trust records`;
    default:
      return `"${kid}" is not a trust-check kid whose block the on-chain reader reads`;
  }
}

/**
 * The line printed when a forced kid is installed.
 *
 * @param kid - The forced kid.
 * @returns A warning line starting with `!`.
 */
export function forcedKidWarning(kid: string): string {
  return `! signing key "${kid}" is forced: ${offPurposeReason(kid)}; the oracle will accept trust records it signs`;
}

/**
 * The problems of a selection that need no JWKS to see: a kid outside the on-chain trust kids asked for without
 * forcing it, an empty kid, a thumbprint that is not one, a pinned kid that the selection leaves out.
 *
 * @param selection - Kids, forced kids, pinned thumbprints.
 * @returns One line per problem (empty when the selection is acceptable).
 */
export function keySelectionProblems(selection: KeySelection): string[] {
  const problems: string[] = [];
  const kids = selection.kids ?? [];
  const forced = selection.forceKids ?? [];
  if ([...kids, ...forced].some((kid) => kid.trim() === "")) problems.push("A key id to install is empty");
  for (const kid of kids) {
    if (ONCHAIN_TRUST_ATTESTATION_KIDS.includes(kid) || forced.includes(kid)) continue;
    problems.push(
      `Refusing to install "${kid}": ${offPurposeReason(kid)}. The oracle holds only ${quoted(ONCHAIN_TRUST_ATTESTATION_KIDS)} unless another kid is forced by name (--force-kid ${kid}, or attestedOracle.forceKids)`,
    );
  }
  const explicit = kids.length > 0 || forced.length > 0;
  for (const [kid, thumbprint] of Object.entries(selection.thumbprints ?? {})) {
    if (!JWK_THUMBPRINT_PATTERN.test(thumbprint)) {
      problems.push(`The thumbprint pinned for "${kid}" is not a base64url SHA-256 JWK thumbprint (43 characters): "${thumbprint}"`);
    } else if (explicit ? !kids.includes(kid) && !forced.includes(kid) : !ONCHAIN_TRUST_ATTESTATION_KIDS.includes(kid)) {
      problems.push(pinnedNotInstalled(kid));
    }
  }
  return problems;
}

/**
 * Parses `--thumbprint kid=<base64url>` values.
 *
 * @param values - The option's values.
 * @returns The pins by kid.
 * @throws {@link DeploymentError} `bad-config` for a value without `=`, an empty kid, or a kid pinned twice.
 */
export function parseThumbprintPins(values: readonly string[]): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    const kid = at < 0 ? "" : value.slice(0, at).trim();
    if (kid === "") throw new DeploymentError("bad-config", `--thumbprint takes kid=<base64url thumbprint>, not "${value}"`);
    if (Object.hasOwn(pins, kid)) throw new DeploymentError("bad-config", `--thumbprint pins "${kid}" twice`);
    pins[kid] = value.slice(at + 1).trim();
  }
  return pins;
}

/**
 * The keys of a JWKS to install on an attested oracle, each checked: one purpose per key, a usable ES256 key,
 * and the pinned thumbprint if any.
 *
 * @param loaded - The JWKS.
 * @param selection - Kids, forced kids and pinned thumbprints (default: the on-chain trust kids the JWKS has).
 * @returns One key per kid, in the JWKS's order (an entry repeated with the same coordinates counts once).
 * @throws {@link DeploymentError} `refused-kid` for a problem of {@link keySelectionProblems} (the first one);
 *   `bad-jwks` for a JWKS without keys or without any on-chain trust kid (naming the kids it has), a kid asked for
 *   and absent, an entry to install that is not an EC P-256 ES256 signing key, or one kid published with two keys;
 *   `thumbprint-mismatch` naming the kid, the pinned and the published thumbprints.
 */
export async function selectSigningKeys(loaded: LoadedJwks, selection: KeySelection = {}): Promise<SelectedSigningKey[]> {
  const problems = keySelectionProblems(selection);
  if (problems.length > 0) throw new DeploymentError("refused-kid", problems[0]!);
  const entries: readonly JWK[] = loaded.jwks.keys ?? [];
  const published = entries.map((jwk) => jwk?.kid).filter((kid): kid is string => typeof kid === "string");
  const forced = selection.forceKids ?? [];
  const asked = [...new Set([...(selection.kids ?? []), ...forced])];
  for (const kid of asked) {
    if (!published.includes(kid)) {
      throw new DeploymentError("bad-jwks", `The JWKS ${loaded.source} has no key "${kid}" (its kids: ${quoted(published) || "none"})`);
    }
  }
  const wanted = asked.length > 0 ? asked : ONCHAIN_TRUST_ATTESTATION_KIDS.filter((kid) => published.includes(kid));
  if (wanted.length === 0 && entries.length > 0) {
    throw new DeploymentError(
      "bad-jwks",
      `The JWKS ${loaded.source} has no on-chain trust kid (${quoted(ONCHAIN_TRUST_ATTESTATION_KIDS)}); its kids: ${quoted(published) || "none"}. Install another by name with --force-kid <kid> (attestedOracle.forceKids)`,
    );
  }
  let keys: SigningKeyArgs[];
  try {
    keys = signingKeyArgsOfJwks(loaded.jwks, wanted);
  } catch (cause) {
    throw new DeploymentError("bad-jwks", `${messageOf(cause)} (JWKS ${loaded.source})`, {
      cause,
      details:
        "Only EC P-256 keys for ES256 (alg ES256 or none, use sig or none) verify on-chain; only the kids selected are read (--kid / --force-kid, attestedOracle.kids / forceKids in deploy/config.json).",
    });
  }
  const byKid = new Map<string, SelectedSigningKey>();
  for (const key of keys) {
    const seen = byKid.get(key.kid);
    if (seen && (seen.x !== key.x || seen.y !== key.y)) {
      throw new DeploymentError("bad-jwks", `The JWKS ${loaded.source} publishes two different keys with kid "${key.kid}"`);
    }
    if (seen) continue;
    byKid.set(key.kid, { ...key, thumbprint: await thumbprintOf(key), forced: !ONCHAIN_TRUST_ATTESTATION_KIDS.includes(key.kid) });
  }
  for (const [kid, expected] of Object.entries(selection.thumbprints ?? {})) {
    const key = byKid.get(kid);
    if (!key) throw new DeploymentError("refused-kid", pinnedNotInstalled(kid));
    if (key.thumbprint !== expected) {
      throw new DeploymentError(
        "thumbprint-mismatch",
        `The JWKS ${loaded.source} publishes "${kid}" with thumbprint ${key.thumbprint}, not the pinned ${expected}: refusing to install it`,
        { details: "Check where the JWKS comes from; if the service really published this key, pin its new thumbprint." },
      );
    }
  }
  return [...byKid.values()];
}

/**
 * RFC 7638 thumbprint of the key as the oracle holds it: its coordinates re-encoded in canonical base64url, so a
 * JWK that spells them loosely (padding, stray characters a lenient decoder skips) gets the thumbprint of the key
 * that is installed, and the computation never throws.
 */
function thumbprintOf(key: SigningKeyArgs): Promise<string> {
  const base64url = (hex: string) => Buffer.from(hex.slice(2), "hex").toString("base64url");
  return calculateJwkThumbprint({ kty: "EC", crv: "P-256", x: base64url(key.x), y: base64url(key.y) }, "sha256");
}

function pinnedNotInstalled(kid: string): string {
  return `A thumbprint is pinned for "${kid}", which is not among the kids to install`;
}

function quoted(kids: readonly string[]): string {
  return kids.map((kid) => `"${kid}"`).join(", ");
}
