/**
 * The arguments of an on-chain submission (`AttestedTrustOracle.submitAttestation`, or a gate's
 * `onlyTrustedAgentWithAttestation` path) made from a `/api/trust-check` response: the key id, the exact signed bytes
 * and the 64-byte `r‖s` signature. Nothing is verified here: the contract verifies.
 *
 * @packageDocumentation
 */
import type { Hex } from "viem";
import { InvalidArgumentError } from "../errors.js";
import { decodeLegacySignature } from "./legacy-signature.js";

/** Arguments of an on-chain submission of a trust-check attestation. */
export interface AttestationCall {
  /** The attestation's key id (`attestation.kid`); the oracle must hold its public key. */
  readonly kid: string;
  /**
   * Which signature the call carries. `sig`: `signature` covers `signedJson` itself — call
   * `submitAttestation(kid, signedJson, signature)` (or a gate's attestation path). `jws`: the response had no raw
   * `sig`, and the JWS signature covers the ASCII `header.payload`, not the payload bytes — call
   * `submitJwsAttestation(kid, jws)` (about 56,000 gas more, for the base64url decoding).
   */
  readonly form: "sig" | "jws";
  /** The exact signed JSON bytes: UTF-8 of `JSON.stringify(attestation.signed)`, or the JWS payload bytes. */
  readonly signedJson: Hex;
  /** The signature, 64 bytes `r‖s` (from the base64 `sig`, or the JWS signature when there is no `sig`). */
  readonly signature: Hex;
  /** The compact JWS as ASCII bytes, for `submitJwsAttestation` (form `jws` only). */
  readonly jws?: Hex;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function hexOf(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString("hex")}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Builds the on-chain call arguments from a `/api/trust-check` response body (or its `attestation` object).
 *
 * With a raw `sig` (base64 of `r‖s`) and a `signed` block, the signed bytes are exactly
 * `JSON.stringify(attestation.signed)` — the response's own key order, as the service signed it — and the call form is
 * `sig`. Otherwise, with a compact JWS (`jws`, or a `sig` that is itself one), the signed bytes are the JWS payload and
 * the signature the JWS signature, in form `jws`. A high-S signature is passed as is: the contract normalises it.
 *
 * @param response - The response body (`{ attestation: {...} }`), or the attestation object itself.
 * @returns The call arguments.
 * @throws {@link InvalidArgumentError} when there is no attestation, no `kid`, no signature, a `sig` that is not
 *   64 bytes of base64, a JWS that is not compact or whose signature is not 64 bytes, or a raw `sig` without a
 *   `signed` block.
 */
export function toAttestationCall(response: unknown): AttestationCall {
  if (!isRecord(response)) throw new InvalidArgumentError("The trust-check response is not an object");
  const attestation = isRecord(response.attestation) ? response.attestation : response;
  const kid = attestation.kid;
  if (typeof kid !== "string" || kid.length === 0) {
    throw new InvalidArgumentError("The attestation has no kid", { details: "attestation.kid must be a non-empty string" });
  }
  const sig = typeof attestation.sig === "string" ? attestation.sig : undefined;
  const jwsField = typeof attestation.jws === "string" ? attestation.jws : undefined;
  const sigIsJws = sig !== undefined && sig.split(".").length === 3;

  if (sig !== undefined && !sigIsJws) {
    if (!isRecord(attestation.signed)) {
      throw new InvalidArgumentError("The attestation has a raw sig but no signed block to submit with it");
    }
    const decoded = decodeLegacySignature(sig);
    if (!decoded.ok) throw new InvalidArgumentError(`The attestation's sig cannot be submitted: ${decoded.problem}`);
    return {
      kid,
      form: "sig",
      signedJson: hexOf(new TextEncoder().encode(JSON.stringify(attestation.signed))),
      signature: hexOf(decoded.bytes),
    };
  }

  const jws = jwsField ?? (sigIsJws ? sig : undefined);
  if (jws === undefined) throw new InvalidArgumentError("The attestation has neither a sig nor a jws");
  if (!COMPACT_JWS.test(jws)) throw new InvalidArgumentError("The attestation's jws is not a compact JWS (header.payload.signature)");
  const [, payload, signature] = jws.split(".") as [string, string, string];
  const signatureBytes = Buffer.from(signature, "base64url");
  if (signatureBytes.length !== 64) {
    throw new InvalidArgumentError(`The JWS signature decodes to ${signatureBytes.length} bytes; an ES256 signature (r‖s) has 64`);
  }
  return {
    kid,
    form: "jws",
    signedJson: hexOf(Buffer.from(payload, "base64url")),
    signature: hexOf(signatureBytes),
    jws: hexOf(new TextEncoder().encode(jws)),
  };
}
