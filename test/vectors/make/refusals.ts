/**
 * The refusals a verifier must make, each with its reason: tampered bytes, two signatures that disagree, a kid
 * of another kind or with no key, refused algorithms and header members, a header kid that is absent or
 * differs, times out of the window, a body the signature does not vouch for, an envelope (issuer, JWKS URL)
 * of another origin, non-canonical base64url, no signature at all.
 *
 * Each refused response is otherwise genuine: its signatures are real (unless `forged` says what was altered),
 * so that only the rule the vector is about can refuse it.
 */
import { serializeSigned, signCompactJws } from "../../../src/harness/signing";
import { algNoneJws } from "../../support/attestations";
import type { OnchainExpectation, TrustCheckVector } from "../format";
import { b64url, hmacWithPublicKey, partsOf, signCompactParts, withLeftoverBits } from "./compact";
import { accepted, refused, reverts, vectorOf, type VectorDraft } from "./draft";
import type { VectorKeys } from "./keys";
import { agentAnswer, attest, HOUR_MS, jwsCall, MINUTE_MS, nowPlus, recordOf, respond, sigCall, walletNotFoundAnswer } from "./responses";

/**
 * Builds the refusal vectors.
 *
 * @param keys - The test keys.
 * @returns The vectors.
 */
export async function refusalVectors(keys: VectorKeys): Promise<TrustCheckVector[]> {
  const key = keys.trustV2;
  const kid = key.kid;
  const { body, signed } = await agentAnswer(key);
  const insertion = serializeSigned(signed, "insertion");
  const jwsOnly = await attest(signed, key, { form: "jws", signedNull: true });
  const drafts: VectorDraft[] = [];
  const badSignature = reverts("InvalidAttestationSignature", { kid });
  const malformedJws = reverts("JwsMalformed");
  const invalidMember = (member: string) => reverts("JwsHeaderMemberInvalid", { member });

  // Tampered bytes.
  const raised = { ...signed, score: 95 };
  const [header, , signature] = partsOf(jwsOnly.jws!);
  const tamperedJws = `${header}.${b64url(JSON.stringify(raised))}.${signature}`;
  drafts.push({
    id: "tampered-jws-payload",
    covers: ["refuse:tampered-payload", "form:jws-only"],
    description: "The JWS payload rewritten (score 82 to 95) under the original signature; the body says 95 like the payload.",
    response: respond({ ...body, score: 95 }, { ...jwsOnly, jws: tamperedJws }),
    forged: "the JWS payload part was replaced after signing",
    call: jwsCall(kid, tamperedJws),
    offchain: refused("bad-jws-signature", "jws"),
    onchain: badSignature,
  });

  const sigOnly = await attest(signed, key, { form: "sig" });
  drafts.push({
    id: "tampered-signed-block-sig-only",
    covers: ["refuse:tampered-payload", "form:sig-only"],
    description:
      "A sig-only response whose signed block was edited after signing (score 82 to 95): the sig verifies over neither serialisation.",
    response: respond({ ...body, score: 95 }, { ...sigOnly, signed: raised }),
    forged: "signed.score was changed after signing",
    call: sigCall(kid, serializeSigned(raised), sigOnly.sig!),
    offchain: refused("bad-legacy-signature", "sig"),
    onchain: badSignature,
  });

  const otherValue = await attest(raised, key, { form: "jws" });
  const disagreeing = { ...(await attest(signed, key, { form: "sig" })), jws: otherValue.jws };
  drafts.push({
    id: "sig-and-jws-disagree",
    covers: ["refuse:sig-jws-disagree", "form:both", "divergence:envelope"],
    description:
      "A sig over signed (score 82) beside a jws over another value (score 95), both genuine: the JWS payload and signed differ by parsed value.",
    response: respond(body, disagreeing),
    divergence:
      "The chain is given the JWS alone (the call prefers it), which is genuine and stores score 95; the disagreement with the sig and signed lies in the envelope, which only the off-chain verifier sees.",
    call: jwsCall(kid, otherValue.jws!),
    offchain: refused("payload-mismatch", "score"),
    sigBytes: "insertion-order",
    onchain: accepted(recordOf(raised)),
  });

  // Kids.
  const walletKid = await attest(signed, keys.wallet);
  drafts.push({
    id: "wrong-kid-for-type",
    covers: ["refuse:wrong-kid-for-type", "form:both"],
    description:
      "A trust-check signed under rnwy-wallet-v1, the wallet-score kid. The key set publishes that kid with the same key material, so the signatures verify: only the binding of the kid to its kind refuses it.",
    response: respond(body, walletKid),
    call: jwsCall(keys.wallet.kid, walletKid.jws!),
    offchain: refused("kid-not-accepted", "kid"),
    sigBytes: "insertion-order",
    onchain: reverts("UnknownSigningKey", { kid: keys.wallet.kid }),
  });

  const unknownKey = { ...key, kid: "rnwy-trust-v3" };
  const unknownKid = await attest(signed, unknownKey);
  drafts.push({
    id: "unknown-kid",
    covers: ["refuse:unknown-kid", "form:both"],
    description:
      "A kid the verifier does not accept (rnwy-trust-v3), signed with the rnwy-trust-v2 key: it must not be checked with any key.",
    response: respond(body, unknownKid),
    call: jwsCall(unknownKey.kid, unknownKid.jws!),
    offchain: refused("kid-not-accepted", "kid"),
    sigBytes: "insertion-order",
    onchain: reverts("UnknownSigningKey", { kid: unknownKey.kid }),
  });
  drafts.push({
    id: "unknown-kid-accepted-without-key",
    covers: ["refuse:unknown-kid", "form:both"],
    description:
      "The same response under a verifier that accepts rnwy-trust-v3 but whose key set has no key for it: refused for the missing key, never checked with the first key of the set (which would verify it).",
    options: { acceptedKids: ["rnwy-trust-v2", "rnwy-trust-v3"] },
    response: respond(body, unknownKid),
    call: jwsCall(unknownKey.kid, unknownKid.jws!),
    offchain: refused("key-not-found", "kid"),
    sigBytes: "insertion-order",
    onchain: reverts("UnknownSigningKey", { kid: unknownKey.kid }),
  });

  const noHeaderKid = await signCompactJws({ alg: "ES256" }, insertion, key);
  drafts.push({
    id: "header-without-kid",
    covers: ["refuse:header-kid", "form:jws-only"],
    description: "A JWS header {alg} without a kid, under attestation.kid rnwy-trust-v2: the header must name the kid.",
    response: respond(body, { ...jwsOnly, jws: noHeaderKid }),
    call: jwsCall(kid, noHeaderKid),
    offchain: refused("missing-kid", "jws"),
    onchain: reverts("JwsHeaderMemberMissing", { member: "kid" }),
  });

  const otherHeaderKid = await signCompactJws({ alg: "ES256", kid: keys.trustV1.kid }, insertion, key);
  drafts.push({
    id: "header-kid-differs",
    covers: ["refuse:header-kid", "form:jws-only"],
    description: "A JWS header naming rnwy-trust-v1 under attestation.kid rnwy-trust-v2 (signed with the v2 key).",
    response: respond(body, { ...jwsOnly, jws: otherHeaderKid }),
    call: jwsCall(kid, otherHeaderKid),
    offchain: refused("kid-mismatch", "kid"),
    onchain: reverts("JwsKidMismatch", { kid, headerKid: keys.trustV1.kid }),
  });

  // Algorithms.
  const unsigned = algNoneJws(signed, kid);
  drafts.push({
    id: "alg-none-unsigned",
    covers: ["refuse:alg-none", "form:jws-only"],
    description: "alg none with an empty signature part.",
    response: respond(body, { ...jwsOnly, jws: unsigned }),
    forged: "no signature: alg none",
    call: jwsCall(kid, unsigned),
    offchain: refused("unsupported-alg", "jws"),
    onchain: reverts("AttestationSignatureLength", { length: 0 }),
  });

  const noneSigned = await signCompactJws({ alg: "none", kid }, insertion, key);
  drafts.push({
    id: "alg-none-es256-signed",
    covers: ["refuse:alg-none", "form:jws-only"],
    description:
      "alg none in a header that carries a genuine ES256 signature: the algorithm the header names is refused, whatever the signature.",
    response: respond(body, { ...jwsOnly, jws: noneSigned }),
    call: jwsCall(kid, noneSigned),
    offchain: refused("unsupported-alg", "jws"),
    onchain: invalidMember("alg"),
  });

  const hs256 = await hmacWithPublicKey("HS256", kid, insertion, key);
  drafts.push({
    id: "alg-hs256-public-key-secret",
    covers: ["refuse:hs256", "form:jws-only"],
    description: "HS256 keyed with the PEM of the public key (key confusion): a 32-byte MAC.",
    response: respond(body, { ...jwsOnly, jws: hs256 }),
    forged: "no ES256 signature: an HMAC keyed with the public key",
    call: jwsCall(kid, hs256),
    offchain: refused("unsupported-alg", "jws"),
    onchain: reverts("AttestationSignatureLength", { length: 32 }),
  });

  const hs512 = await hmacWithPublicKey("HS512", kid, insertion, key);
  drafts.push({
    id: "alg-hs512-public-key-secret",
    covers: ["refuse:hs256", "form:jws-only"],
    description: "HS512 keyed with the PEM of the public key: a 64-byte MAC, the length of an ES256 signature, so only the alg refuses it.",
    response: respond(body, { ...jwsOnly, jws: hs512 }),
    forged: "no ES256 signature: an HMAC keyed with the public key",
    call: jwsCall(kid, hs512),
    offchain: refused("unsupported-alg", "jws"),
    onchain: invalidMember("alg"),
  });

  // Header members.
  const refusedMembers: [string, string, Record<string, unknown>][] = [
    ["crit", "refuse:crit", { crit: ["exp"], exp: 1_790_942_400 }],
    ["jku", "refuse:jku", { jku: "https://rnwy.com/.well-known/jwks.json" }],
    ["x5u", "refuse:x5u", { x5u: "https://rnwy.com/.well-known/attestation-cert.pem" }],
    ["jwk", "refuse:jwk", { jwk: { kty: "EC", crv: "P-256", x: key.publicJwk.x, y: key.publicJwk.y } }],
    ["x5c", "refuse:header-other", { x5c: ["bm90LWEtY2VydGlmaWNhdGU="] }],
    ["b64", "refuse:header-other", { b64: true }],
  ];
  for (const [member, tag, extra] of refusedMembers) {
    const jws = await signCompactJws({ alg: "ES256", kid, ...extra }, insertion, key);
    drafts.push({
      id: `header-${member}`,
      covers: [tag, "form:jws-only"],
      description: `A genuine ES256 JWS whose header carries ${member}${member === "jwk" ? " (the right public key, even)" : ""}: refused, never acted on.`,
      response: respond(body, { ...jwsOnly, jws }),
      call: jwsCall(kid, jws),
      offchain: refused("unsupported-header", "jws"),
      onchain: reverts("JwsHeaderMemberRefused", { member }),
    });
  }

  const otherTyp = await signCompactJws({ alg: "ES256", kid, typ: "at+jwt" }, insertion, key);
  drafts.push({
    id: "header-typ-other",
    covers: ["refuse:header-other", "form:jws-only"],
    description: "typ at+jwt: only JWT and JOSE are allowed.",
    response: respond(body, { ...jwsOnly, jws: otherTyp }),
    call: jwsCall(kid, otherTyp),
    offchain: refused("unsupported-header", "jws"),
    onchain: invalidMember("typ"),
  });

  const duplicateAlg = await signCompactParts(b64url(`{"alg":"none","kid":"${kid}","alg":"ES256"}`), b64url(insertion), key);
  drafts.push({
    id: "header-duplicate-alg",
    covers: ["refuse:header-other", "form:jws-only"],
    description:
      "A header with alg twice, none then ES256: JSON.parse keeps the last (ES256), a first-match reader the first (none, refused as it reads it); duplicates are refused.",
    response: respond(body, { ...jwsOnly, jws: duplicateAlg }),
    call: jwsCall(kid, duplicateAlg),
    offchain: refused("malformed", "jws"),
    onchain: invalidMember("alg"),
  });

  const duplicateKid = await signCompactParts(b64url(`{"alg":"ES256","kid":"${kid}","kid":"${kid}"}`), b64url(insertion), key);
  drafts.push({
    id: "header-duplicate-kid",
    covers: ["refuse:header-other", "form:jws-only"],
    description: "A header with kid twice, both the right one: the duplicate alone refuses it.",
    response: respond(body, { ...jwsOnly, jws: duplicateKid }),
    call: jwsCall(kid, duplicateKid),
    offchain: refused("malformed", "jws"),
    onchain: reverts("JwsHeaderMemberDuplicate", { member: "kid" }),
  });

  const escapedName = await signCompactParts(b64url(`{"\\u0061lg":"ES256","kid":"${kid}"}`), b64url(insertion), key);
  drafts.push({
    id: "header-escaped-member-name",
    covers: ["refuse:header-other", "form:jws-only"],
    description: 'A header member name written with an escape ("\\u0061lg" for alg): refused, as escaped names are.',
    response: respond(body, { ...jwsOnly, jws: escapedName }),
    call: jwsCall(kid, escapedName),
    offchain: refused("malformed", "jws"),
    onchain: reverts("JwsHeaderMalformed"),
  });

  // Time window.
  const old = await agentAnswer(key, {}, { issuedBeforeMs: 30 * HOUR_MS, verifiedBeforeMs: 26 * HOUR_MS });
  const expired = await attest(old.signed, key);
  drafts.push({
    id: "expired",
    covers: ["refuse:expired", "form:both"],
    description: "Signed 26 h before now with a 24 h expiry: expired 2 h ago.",
    response: respond(old.body, expired),
    call: jwsCall(kid, expired.jws!),
    offchain: refused("expired", "expiry"),
    sigBytes: "insertion-order",
    onchain: reverts("AttestationExpired", { expiry: seconds(old.signed.expiry), blockTimestamp: seconds(nowPlus(0)) }),
  });

  const ahead = await agentAnswer(key, {}, { issuedBeforeMs: -2 * HOUR_MS, verifiedBeforeMs: -2 * HOUR_MS - 10 * MINUTE_MS });
  const future = await attest(ahead.signed, key);
  drafts.push({
    id: "future-dated",
    covers: ["refuse:future-dated", "form:both"],
    description: "Computed 2 h and signed 2 h 10 min after now: far beyond any clock skew.",
    response: respond(ahead.body, future),
    call: jwsCall(kid, future.jws!),
    offchain: refused("issued-in-future", "issuedAt"),
    sigBytes: "insertion-order",
    // The oracle bounds verifiedAt by the block and issuedAt by verifiedAt, so it names the signing time.
    onchain: reverts("AttestationFromFuture", { timestamp: seconds(ahead.signed.verifiedAt), blockTimestamp: seconds(nowPlus(0)) }),
  });

  const outOfOrder = await agentAnswer(key, {}, { issuedBeforeMs: HOUR_MS, verifiedBeforeMs: HOUR_MS + 1_000 });
  const outOfOrderAttestation = await attest(outOfOrder.signed, key);
  drafts.push({
    id: "issued-after-verified",
    covers: ["refuse:dates-out-of-order", "form:both"],
    description: "Computed (issuedAt) one second after it was signed (verifiedAt), both in the past: a block the service does not write.",
    response: respond(outOfOrder.body, outOfOrderAttestation),
    call: jwsCall(kid, outOfOrderAttestation.jws!),
    offchain: refused("invalid-time", "issuedAt"),
    sigBytes: "insertion-order",
    onchain: reverts("AttestationDatesOutOfOrder", {
      issuedAt: seconds(outOfOrder.signed.issuedAt),
      verifiedAt: seconds(outOfOrder.signed.verifiedAt),
    }),
  });

  const lateSigned = await agentAnswer(key, {}, { issuedBeforeMs: HOUR_MS, verifiedBeforeMs: -HOUR_MS });
  const futureVerified = await attest(lateSigned.signed, key);
  drafts.push({
    id: "future-verified-at",
    covers: ["refuse:future-dated", "form:both"],
    description: "Computed 1 h before now but signed (verifiedAt) 1 h after now.",
    response: respond(lateSigned.body, futureVerified),
    call: jwsCall(kid, futureVerified.jws!),
    offchain: refused("issued-in-future", "verifiedAt"),
    sigBytes: "insertion-order",
    onchain: reverts("AttestationFromFuture", {
      timestamp: seconds(lateSigned.signed.verifiedAt),
      blockTimestamp: seconds(nowPlus(0)),
    }),
  });

  // The one clock skew both verifiers tolerate (60 s: the oracle's MAX_CLOCK_SKEW equals the TypeScript verifier's
  // default clockSkewSeconds): within it, past the signed expiry or ahead of now, both accept.
  const justExpired = await attest(signed, key);
  const afterExpiry = new Date((seconds(signed.expiry) + 30) * 1000).toISOString();
  drafts.push({
    id: "expired-within-clock-skew",
    covers: ["accept:clock-skew", "form:both"],
    description: "Verified 30 s after the signed expiry: within the clock skew both verifiers tolerate (60 s).",
    now: afterExpiry,
    response: respond(body, justExpired),
    call: jwsCall(kid, justExpired.jws!),
    offchain: { valid: true, version: "v2" },
    sigBytes: "insertion-order",
    onchain: accepted(recordOf(signed)),
  });

  const soon = await agentAnswer(key, {}, { issuedBeforeMs: -30_000, verifiedBeforeMs: -40_000 });
  const soonAttestation = await attest(soon.signed, key);
  drafts.push({
    id: "future-dated-within-clock-skew",
    covers: ["accept:clock-skew", "form:both"],
    description: "Computed 30 s and signed 40 s after now: within the clock skew both verifiers tolerate (60 s).",
    response: respond(soon.body, soonAttestation),
    call: jwsCall(kid, soonAttestation.jws!),
    offchain: { valid: true, version: "v2" },
    sigBytes: "insertion-order",
    onchain: accepted(recordOf(soon.signed)),
  });

  const justAhead = await agentAnswer(key, {}, { issuedBeforeMs: -90_000, verifiedBeforeMs: -95_000 });
  const justAheadAttestation = await attest(justAhead.signed, key);
  drafts.push({
    id: "future-dated-beyond-clock-skew",
    covers: ["refuse:future-dated", "refuse:beyond-clock-skew", "form:both"],
    description: "Computed 90 s and signed 95 s after now: just beyond the clock skew both verifiers tolerate (60 s).",
    response: respond(justAhead.body, justAheadAttestation),
    call: jwsCall(kid, justAheadAttestation.jws!),
    offchain: refused("issued-in-future", "issuedAt"),
    sigBytes: "insertion-order",
    onchain: reverts("AttestationFromFuture", { timestamp: seconds(justAhead.signed.verifiedAt), blockTimestamp: seconds(nowPlus(0)) }),
  });

  // The body.
  const notFound = await walletNotFoundAnswer(key);
  const notFoundAttestation = await attest(notFound.signed, key);
  const { attestation: _dropped, ...agentFields } = respond(body, notFoundAttestation);
  drafts.push({
    id: "found-false-with-agent-fields",
    covers: ["refuse:found-false-agent-fields", "form:both"],
    description:
      "A genuine signed found: false beside a body that also speaks of an agent (agentId, score, …): the signature cannot cover those fields.",
    response: respond({ ...notFound.body, ...agentFields }, notFoundAttestation),
    call: jwsCall(kid, notFoundAttestation.jws!),
    offchain: refused("field-mismatch", "agentId"),
    sigBytes: "insertion-order",
    onchain: reverts("AttestationFieldInvalid", { field: "found" }),
  });

  const genuine = await attest(signed, key);
  drafts.push({
    id: "body-contradicts-signed-block",
    covers: ["refuse:body-contradicts", "form:both", "divergence:body"],
    description: "A genuine attestation (score 82) in a body that says score 95.",
    response: respond({ ...body, score: 95 }, genuine),
    divergence: "The body is not submitted: the chain stores the signed score 82, which is all it is given.",
    call: jwsCall(kid, genuine.jws!),
    offchain: refused("field-mismatch", "score"),
    sigBytes: "insertion-order",
    onchain: accepted(recordOf(signed)),
  });

  // The envelope.
  const foreignJwks = await attest(signed, key, { jwks: "https://keys.rnwy.example/.well-known/jwks.json" });
  drafts.push({
    id: "jwks-of-another-origin",
    covers: ["refuse:jwks-other-origin", "form:both", "divergence:envelope"],
    description: "attestation.jwks points to another origin than the issuer's: refused (fail closed), never fetched.",
    response: respond(body, foreignJwks),
    divergence: "attestation.jwks is not submitted: the chain verifies with the key it holds for the kid.",
    call: jwsCall(kid, foreignJwks.jws!),
    offchain: refused("jwks-mismatch", "jwks"),
    sigBytes: "insertion-order",
    onchain: accepted(recordOf(signed)),
  });

  const foreignIssuer = await attest(signed, key, { issuer: "https://rnwy.example" });
  drafts.push({
    id: "issuer-of-another-origin",
    covers: ["refuse:issuer", "form:both", "divergence:envelope"],
    description: "attestation.issuer names another issuer (its jwks is that issuer's).",
    response: respond(body, foreignIssuer),
    divergence: "attestation.issuer is not submitted: the chain trusts the key it holds for the kid.",
    call: jwsCall(kid, foreignIssuer.jws!),
    offchain: refused("issuer-mismatch", "issuer"),
    sigBytes: "insertion-order",
    onchain: accepted(recordOf(signed)),
  });

  // Non-canonical base64url, each signed as written.
  const [headerPart, payloadPart, signaturePart] = partsOf(jwsOnly.jws!);
  // Each: name, what is not canonical, the JWS, and the oracle's error (a signature part of another length than
  // 86 characters is refused for its length before its characters are read).
  const nonCanonical: [string, string, string, OnchainExpectation][] = [
    [
      "padded-signature",
      "the signature part with its = padding",
      `${headerPart}.${payloadPart}.${signaturePart}==`,
      reverts("AttestationSignatureLength"),
    ],
    [
      "signature-leftover-bits",
      "the signature part with non-zero leftover bits in its last character",
      `${headerPart}.${payloadPart}.${withLeftoverBits(signaturePart)}`,
      malformedJws,
    ],
  ];
  // Nine '?' (0x3F) hold a whole aligned group 3F 3F 3F, whose base64url is "Pz8_": the payload part has a '_'.
  const questionMarks = new TextEncoder().encode(`${JSON.stringify(signed).slice(0, -1)},"note":"?????????"}`);
  const standardAlphabet = b64url(questionMarks).replace(/-/g, "+").replace(/_/g, "/");
  nonCanonical.push([
    "standard-alphabet-payload",
    "the payload part in the standard base64 alphabet (/ for _)",
    await signCompactParts(headerPart, standardAlphabet, key),
    malformedJws,
  ]);
  const padded = padToWholeGroups(insertion);
  nonCanonical.push([
    "payload-length-1-mod-4",
    "the payload part with one stray character (a length of 1 mod 4), which lenient decoders drop",
    await signCompactParts(headerPart, `${b64url(padded)}A`, key),
    malformedJws,
  ]);
  for (const [name, what, jws, onchain] of nonCanonical) {
    drafts.push({
      id: `base64url-${name}`,
      covers: ["refuse:non-canonical-base64url", "form:jws-only"],
      description: `A JWS with ${what}, signed as written: a lenient decoder reads the genuine bytes, but the encoding is not canonical base64url.`,
      response: respond(body, { ...jwsOnly, jws }),
      call: jwsCall(kid, jws),
      offchain: refused("malformed", "jws"),
      onchain,
    });
  }

  const { sig: _sig, jws: _jws, ...unsignedAttestation } = genuine;
  drafts.push({
    id: "no-signature",
    covers: ["refuse:no-signature"],
    description: "An attestation with a signed block but neither sig nor jws.",
    response: respond(body, unsignedAttestation),
    call: null,
    offchain: refused("missing-signature"),
    onchain: null,
    onchainReason: "There is no signature, so there is nothing to submit.",
  });

  return drafts.map((draft) => vectorOf("refusal", draft));
}

/** Unix seconds of an ISO time in a signed block. */
function seconds(time: unknown): number {
  return Math.floor(Date.parse(time as string) / 1000);
}

/** The bytes followed by spaces (JSON whitespace) up to a multiple of 3, so that their base64url has no partial group. */
function padToWholeGroups(bytes: Uint8Array): Uint8Array {
  const spaces = (3 - (bytes.length % 3)) % 3;
  return Buffer.concat([Buffer.from(bytes), Buffer.from(" ".repeat(spaces))]);
}
