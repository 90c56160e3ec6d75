/**
 * The arguments of an on-chain submission of a `/api/trust-check` attestation to an `AttestedTrustOracle` (or a
 * gate's attestation path): the key id, the exact signed bytes, the 64-byte `r‖s` signature and, in the JWS form,
 * the compact JWS as issued. Nothing is verified here — the contract verifies — but nothing is built that the
 * contract would read differently from the verifier: the call carries only bytes that were signed, and the
 * bytes are checked against the rules the oracle enforces (`jws.ts` for the header, `trust-signed-block.ts` for
 * the signed block) before they are handed over.
 *
 * Which form: the JWS whenever the attestation carries one (`jws`, or a `sig` that is a compact JWS with
 * `signed: null`), verified on-chain over its `header.payload` as issued — whatever member order, spacing or
 * key order the issuer wrote; a raw `sig` only when there is no JWS. A raw `sig` covers a serialisation of
 * `signed` the response does not carry as bytes: `JSON.stringify(signed)` (insertion order) or its RFC 8785
 * sorted-key form. Given the verifier's verdict, the call carries the serialisation that verified
 * (`verdict.sigBytes`); without it, the insertion order, the service's documented form.
 *
 * A call that could only revert is not built: a signed `chain` the oracle's slug table does not hold is refused with
 * {@link UnstorableAttestationError} (`storability.ts`; the verdict's `onchain` says the same of a verified response).
 *
 * @packageDocumentation
 */
import type { Hex } from "viem";
import { ORACLE_CHAIN_SLUGS } from "../config/chains.js";
import { InvalidArgumentError, UnstorableAttestationError } from "../errors.js";
import { canonicalJson } from "./canonical-json.js";
import { readAttestationEnvelope, splitAttestationResponse } from "./envelope.js";
import { readCompactJws } from "./jws.js";
import { decodeLegacySignature } from "./legacy-signature.js";
import type { SigBytes } from "./result.js";
import { chainStorability } from "./storability.js";
import { readTrustSignedBlockV2 } from "./trust-signed-block.js";

/** Arguments of an on-chain submission of a trust-check attestation. */
export interface AttestationCall {
  /** The key id the signature is checked under (the JWS header's `kid`, else `attestation.kid`); the oracle must hold its key. */
  readonly kid: string;
  /**
   * Which call carries it. `jws`: `submitJwsAttestation(kid, jws)` (or a gate's JWS path); the signature covers the
   * ASCII `header.payload` of {@link AttestationCall.jws}, not {@link AttestationCall.signedJson} alone. `sig`:
   * `submitAttestation(kid, signedJson, signature)` (or a gate's attestation path), for a response without a JWS;
   * `signature` covers `signedJson` itself.
   */
  readonly form: "sig" | "jws";
  /** The exact signed JSON bytes: the JWS payload, or the serialisation of `attestation.signed` the `sig` covers. */
  readonly signedJson: Hex;
  /** The signature, 64 bytes `r‖s` (the JWS signature, or the raw `sig`); a high-S one is passed as is (the contract normalises it). */
  readonly signature: Hex;
  /** The compact JWS as ASCII bytes, as issued (form `jws` only). */
  readonly jws?: Hex;
  /** Form `sig` only: which serialisation of `attestation.signed` {@link AttestationCall.signedJson} is. */
  readonly sigBytes?: SigBytes;
}

/** Options of {@link toAttestationCall}. */
export interface AttestationCallParameters {
  /**
   * The attested oracle's chain slug table, to refuse a signed `chain` it does not hold (default
   * `ORACLE_CHAIN_SLUGS`, the table it is deployed with; pass the one its admin set, read with `chainIdOfSlug`), or
   * `"unchecked"` to leave the slug to a caller that reads the live oracle's table itself.
   */
  readonly chainSlugs?: ReadonlyMap<string, number> | "unchecked";
}

/** What {@link toAttestationCall} takes from a verdict: which bytes the raw `sig` verified over. */
export interface AttestationCallVerdict {
  /** `verdict.sigBytes` of `verifyTrustAttestation`. */
  readonly sigBytes: SigBytes | undefined;
  /** `verdict.valid`: a verdict that is not valid is refused. */
  readonly valid?: boolean;
}

function hexOf(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString("hex")}`;
}

/** What {@link toAttestationCall} throws: a response that cannot be submitted as it is, or cannot be stored. */
export type ToAttestationCallErrorType = InvalidArgumentError | UnstorableAttestationError;

/**
 * Builds the on-chain call arguments from a `/api/trust-check` response body (or its `attestation` object): the
 * JWS form when there is a JWS, else the `sig` form (see the module notes).
 *
 * @param response - The response body (`{ attestation: {...} }`), or the attestation object itself.
 * @param verdict - The verifier's verdict of this response (`verifyTrustAttestation`), to submit the bytes its raw
 *   `sig` verified over; without it a raw `sig` is taken to cover `JSON.stringify(attestation.signed)`.
 * @param options - The oracle's chain slug table (default the one it is deployed with).
 * @returns The call arguments.
 * @throws {@link InvalidArgumentError} when the response cannot be submitted as it is: no attestation, neither a
 *   `sig` nor a `jws`; a JWS that is not a canonical compact JWS, whose header the oracle refuses (not `ES256`, no
 *   `kid`, `crit`, `jku`, `x5u`, `jwk`, `x5c`, `b64`, a `typ` other than `JWT`/`JOSE`), or whose `kid` is not
 *   `attestation.kid`; a raw `sig` that is not 64 bytes of base64, without a `signed` block or a `kid`; a verdict
 *   that is not valid or does not say which bytes the `sig` covers; or signed bytes the oracle's reader refuses
 *   (named with their field and byte offset).
 * @throws {@link UnstorableAttestationError} (an `InvalidArgumentError`) when the signed `chain` is not a slug of the
 *   oracle's table (`options.chainSlugs`): the call could only revert `UnknownChainSlug`.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, toAttestationCall, verifyTrustAttestation } from "trustgate";
 *
 * const check = await createTrustApiClient().trustCheck({ id: 16907, chain: "base" });
 * const verdict = await verifyTrustAttestation(check);
 * const call = toAttestationCall(check, verdict); // throws for a verdict that is not valid
 * // form "jws": submitJwsAttestation(call.kid, call.jws); form "sig": submitAttestation(call.kid, call.signedJson, call.signature)
 * console.log(call.form, call.kid);
 * ```
 */
export function toAttestationCall(
  response: unknown,
  verdict?: AttestationCallVerdict,
  options: AttestationCallParameters = {},
): AttestationCall {
  const read = readAttestationEnvelope(splitAttestationResponse(response).attestation);
  if (!read.ok) throw new InvalidArgumentError(`The attestation cannot be submitted: ${read.problem}`, { details: `field: ${read.field}` });
  const { envelope } = read;
  if (verdict?.valid === false) throw new InvalidArgumentError("The attestation cannot be submitted: its verdict is not valid");

  const carried = envelope.jwss[0];
  if (carried !== undefined) {
    const jws = readCompactJws(carried.value);
    if (!jws.ok) throw new InvalidArgumentError(`The attestation's ${carried.field} cannot be submitted: ${jws.problem}`);
    const { kid } = jws.jws.header;
    if (envelope.kid !== undefined && envelope.kid !== kid) {
      throw new InvalidArgumentError(`The attestation names kid "${envelope.kid}" but its JWS header names "${kid}"`);
    }
    checkSignedBlock(jws.jws.payload, options);
    return {
      kid,
      form: "jws",
      signedJson: hexOf(jws.jws.payload),
      signature: hexOf(jws.jws.signature),
      jws: hexOf(Buffer.from(carried.value, "ascii")),
    };
  }

  if (envelope.rawSig === undefined) throw new InvalidArgumentError("The attestation has neither a sig nor a jws");
  if (envelope.kid === undefined) {
    throw new InvalidArgumentError("The attestation has no kid", { details: "attestation.kid must be a non-empty string" });
  }
  if (envelope.signed === undefined) throw new InvalidArgumentError("The attestation has a raw sig but no signed block to submit with it");
  const decoded = decodeLegacySignature(envelope.rawSig);
  if (!decoded.ok) throw new InvalidArgumentError(`The attestation's sig cannot be submitted: ${decoded.problem}`);
  if (verdict !== undefined && verdict.sigBytes === undefined) {
    throw new InvalidArgumentError(
      "The verdict does not say which bytes the sig verified over (its sig was not verified): verify with the sig checked",
    );
  }
  const sigBytes = verdict?.sigBytes ?? "insertion-order";
  let text: string;
  try {
    text = sigBytes === "sorted-keys" ? canonicalJson(envelope.signed) : JSON.stringify(envelope.signed);
  } catch (error) {
    throw new InvalidArgumentError("The attestation's signed block has no sorted-key serialisation", { cause: error });
  }
  const signedJson = Buffer.from(text, "utf8");
  checkSignedBlock(signedJson, options);
  return { kid: envelope.kid, form: "sig", signedJson: hexOf(signedJson), signature: hexOf(decoded.bytes), sigBytes };
}

/** Refuses signed bytes the oracle's reader refuses, naming the field and offset, and a chain its table does not hold. */
function checkSignedBlock(bytes: Uint8Array, options: AttestationCallParameters): void {
  const block = readTrustSignedBlockV2(bytes);
  if (!block.ok) {
    throw new InvalidArgumentError(`The oracle would refuse the signed block: ${block.problem}`, {
      details: `field: ${block.field}, byte offset ${block.offset} (${block.fault})`,
    });
  }
  if (options.chainSlugs === "unchecked") return;
  const slugs = options.chainSlugs ?? ORACLE_CHAIN_SLUGS;
  if (!chainStorability(block.block.chain, slugs).storable) throw new UnstorableAttestationError(block.block.chain, [...slugs.keys()]);
}
