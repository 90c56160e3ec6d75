/**
 * The valid forms: every way a genuine trust-check attestation may be written (a `sig`, a `jws`, both; the
 * signed bytes in insertion or sorted-key order, with whitespace; headers with and without `typ`, in any
 * member order, with whitespace and skipped members; high-S signatures), each accepted by both verifiers, and
 * the genuine answers only one verifier has a use for (a v1 block, a wallet's signed `found: false`).
 */
import { serializeSigned, signCompactJws } from "../../../src/harness/signing";
import type { TrustCheckVector } from "../format";
import { highS, highSJws, signWithHeaderText } from "./compact";
import { accepted, reverts, VALID_V2, vectorOf, type VectorDraft } from "./draft";
import type { VectorKeys } from "./keys";
import { agentAnswer, attest, jwsCall, recordOf, respond, sigCall, v1Answer, walletNotFoundAnswer } from "./responses";

/**
 * Builds the valid-form vectors.
 *
 * @param keys - The test keys.
 * @returns The vectors.
 */
export async function validFormVectors(keys: VectorKeys): Promise<TrustCheckVector[]> {
  const key = keys.trustV2;
  const kid = key.kid;
  const { body, signed } = await agentAnswer(key);
  const insertion = serializeSigned(signed, "insertion");
  const sorted = serializeSigned(signed, "sorted");
  const stored = accepted(recordOf(signed));
  const drafts: VectorDraft[] = [];
  const valid = (draft: Omit<VectorDraft, "offchain" | "onchain">) => drafts.push({ ...draft, offchain: VALID_V2, onchain: stored });

  const both = await attest(signed, key);
  valid({
    id: "valid-both-insertion-order",
    covers: ["form:both", "sig:insertion-order", "jws-payload:insertion-order", "header:no-typ"],
    description:
      "The form the service is known to write: a sig and a jws, both over JSON.stringify(signed), header {alg, kid}. The call is the JWS form.",
    response: respond(body, both),
    call: jwsCall(kid, both.jws!),
    sigBytes: "insertion-order",
  });

  const sigOnly = await attest(signed, key, { form: "sig" });
  valid({
    id: "valid-sig-only-insertion-order",
    covers: ["form:sig-only", "sig:insertion-order"],
    description: "A raw sig over JSON.stringify(signed) and no jws: the call is the sig form over those bytes.",
    response: respond(body, sigOnly),
    call: sigCall(kid, insertion, sigOnly.sig!),
    sigBytes: "insertion-order",
  });

  const sigSorted = await attest(signed, key, { form: "sig", signing: { sigSerialization: "sorted" } });
  valid({
    id: "valid-sig-only-sorted-keys",
    covers: ["form:sig-only", "sig:sorted-keys"],
    description:
      "A raw sig over the RFC 8785 sorted-key form of signed (as the insumer reference verifier allows) and no jws: it does not verify over the insertion order, so the verifier tries the sorted form, and the call submits the sorted bytes, the ones signed.",
    response: respond(body, sigSorted),
    call: sigCall(kid, sorted, sigSorted.sig!),
    sigBytes: "sorted-keys",
  });

  const jwsOnly = await attest(signed, key, { form: "jws", signedNull: true });
  valid({
    id: "valid-jws-only",
    covers: ["form:jws-only", "jws-payload:insertion-order", "header:no-typ"],
    description: "signed: null and a jws: the JWS payload is the signed data.",
    response: respond(body, jwsOnly),
    call: jwsCall(kid, jwsOnly.jws!),
  });

  const jwsOnlySorted = await attest(signed, key, { form: "jws", signedNull: true, signing: { jwsSerialization: "sorted" } });
  valid({
    id: "valid-jws-only-sorted-keys",
    covers: ["form:jws-only", "jws-payload:sorted-keys"],
    description: "signed: null and a jws whose payload is the sorted-key form: the on-chain reader takes members in any order.",
    response: respond(body, jwsOnlySorted),
    call: jwsCall(kid, jwsOnlySorted.jws!),
  });

  const standardSigner = await attest(signed, key, {
    signing: { jwsSerialization: "sorted", jwsHeader: { alg: "ES256", kid, typ: "JWT" } },
  });
  valid({
    id: "valid-jws-sorted-typ-beside-insertion-order-signed",
    covers: ["form:both", "jws-payload:sorted-keys", "header:typ", "sig:insertion-order"],
    description:
      "What a standard JOSE signer writes: a jws over sorted-key bytes with typ JWT, beside signed in insertion order and a sig over it. The JWS payload and signed are equal by parsed value, not by bytes.",
    response: respond(body, standardSigner),
    call: jwsCall(kid, standardSigner.jws!),
    sigBytes: "insertion-order",
  });

  const sortedSigBesideJws = await attest(signed, key, { signing: { sigSerialization: "sorted" } });
  valid({
    id: "valid-sig-sorted-keys-beside-jws",
    covers: ["form:both", "sig:sorted-keys", "jws-payload:insertion-order"],
    description: "A sig over the sorted-key form beside a jws over the insertion order.",
    response: respond(body, sortedSigBesideJws),
    call: jwsCall(kid, sortedSigBesideJws.jws!),
    sigBytes: "sorted-keys",
  });

  const reordered = await attest(signed, key, { signing: { jwsHeader: { typ: "JOSE", kid, alg: "ES256" } } });
  valid({
    id: "valid-header-typ-jose-members-reordered",
    covers: ["form:both", "header:typ", "header:member-order"],
    description: "The header {typ: JOSE, kid, alg}: typ JOSE is allowed, and members may come in any order.",
    response: respond(body, reordered),
    call: jwsCall(kid, reordered.jws!),
    sigBytes: "insertion-order",
  });

  const spacedHeader = await signWithHeaderText(`{ "kid" : "${kid}",\n\t"alg" : "ES256" }\r\n`, insertion, key);
  const spaced = { ...jwsOnly, jws: spacedHeader };
  valid({
    id: "valid-header-whitespace",
    covers: ["form:jws-only", "header:whitespace", "header:member-order", "header:no-typ"],
    description: "A header with spaces, a tab and line breaks between its tokens, kid first: read as JSON, not compared as text.",
    response: respond(body, spaced),
    call: jwsCall(kid, spacedHeader),
  });

  const skippedMembers = await signCompactJws(
    { alg: "ES256", cty: "json", kid, x5t: "bm90LWEtY2VydGlmaWNhdGUtdGh1bWJwcmludA" },
    insertion,
    key,
  );
  valid({
    id: "valid-header-skipped-members",
    covers: ["form:jws-only", "header:unknown-member"],
    description: "A header with cty and x5t, members that do not change what the signature means: skipped.",
    response: respond(body, { ...jwsOnly, jws: skippedMembers }),
    call: jwsCall(kid, skippedMembers),
  });

  const highSig = { ...sigOnly, sig: highS(Buffer.from(sigOnly.sig!, "base64")).toString("base64") };
  valid({
    id: "valid-high-s-sig",
    covers: ["form:sig-only", "high-s:sig", "sig:insertion-order"],
    description: "A raw sig with s > n/2 (the service does not normalise S): the same signature as its low-S twin.",
    response: respond(body, highSig),
    call: sigCall(kid, insertion, highSig.sig),
    sigBytes: "insertion-order",
  });

  const highJws = highSJws(jwsOnly.jws!);
  valid({
    id: "valid-high-s-jws",
    covers: ["form:jws-only", "high-s:jws"],
    description: "A jws whose signature has s > n/2.",
    response: respond(body, { ...jwsOnly, jws: highJws }),
    call: jwsCall(kid, highJws),
  });

  const pretty = new TextEncoder().encode(`${JSON.stringify(signed, null, 2)}\n`);
  const prettyJws = await attest(signed, key, { form: "jws", signing: { jwsPayload: pretty } });
  valid({
    id: "valid-payload-whitespace-beside-signed",
    covers: ["jws-payload:whitespace"],
    description:
      "A jws whose payload is pretty-printed (spaces and line breaks between tokens) beside the signed block: equal by parsed value.",
    response: respond(body, prettyJws),
    call: jwsCall(kid, prettyJws.jws!),
  });

  const tabbed = new TextEncoder().encode(` \r\n${JSON.stringify(signed, null, "\t").replace(/\n/g, "\r\n")}\t\r\n `);
  const tabbedJws = await attest(signed, key, { form: "jws", signedNull: true, signing: { jwsPayload: tabbed } });
  valid({
    id: "valid-jws-only-payload-whitespace",
    covers: ["form:jws-only", "jws-payload:whitespace"],
    description: "signed: null and a payload with tabs, CRLF line breaks and whitespace before and after the object.",
    response: respond(body, tabbedJws),
    call: jwsCall(kid, tabbedJws.jws!),
  });

  const v1 = await v1Answer(keys.trustV1);
  const v1Attestation = await attest(v1.signed, keys.trustV1);
  drafts.push({
    id: "valid-v1-block",
    covers: ["form:both", "divergence:v1"],
    description:
      "A v1 block (kid rnwy-trust-v1: attestedAt, a numeric agentId, no owner, no signed expiry), still valid off-chain for its implied 24 h lifetime.",
    response: respond(v1.body, v1Attestation),
    divergence:
      "The on-chain reader reads v2 blocks only: a v1 block has no owner, issuedAt, verifiedAt or expiry, so the oracle refuses it with the first missing field.",
    call: jwsCall(keys.trustV1.kid, v1Attestation.jws!),
    offchain: { valid: true, version: "v1" },
    sigBytes: "insertion-order",
    onchain: reverts("AttestationFieldMissing", { field: "owner" }),
  });

  const notFound = await walletNotFoundAnswer(key);
  const notFoundAttestation = await attest(notFound.signed, key);
  drafts.push({
    id: "valid-wallet-not-found",
    covers: ["form:both", "divergence:found-false"],
    description: "A wallet that owns no agent: the signed {found: false, wallet, issuedAt}, a valid proof of absence.",
    response: respond(notFound.body, notFoundAttestation),
    divergence:
      "A signed found: false is a wallet's proof off-chain; it carries no agent, so the oracle has no record to store: its reader refuses any found but true.",
    call: jwsCall(kid, notFoundAttestation.jws!),
    offchain: { valid: true, version: "wallet-not-found" },
    sigBytes: "insertion-order",
    onchain: reverts("AttestationFieldInvalid", { field: "found" }),
  });

  return drafts.map((draft) => vectorOf("valid-form", draft));
}
