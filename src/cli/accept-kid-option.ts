/**
 * `--accept-kid <kid>`: a key id the verifier accepts besides the kit's trust kids (`TRUST_ATTESTATION_KIDS`), for
 * `trustgate drift` and `trustgate refresh` alike. After the service rotates its signing key (the leaked-key runbook of
 * docs/security.md: its next kid installed on the oracle with `npm run keys … --force-kid`), its attestations carry a
 * kid the kit does not know yet; naming it here accepts it, still only with a signature by that kid's key in the
 * issuer's JWKS.
 *
 * @packageDocumentation
 */
import { TRUST_ATTESTATION_KIDS } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";
import type { RepeatableOption } from "./option-table.js";

/** A key id as JWKS publish them: letters, digits and `._:-`, 1 to 128 characters. */
const KID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The kids a run verifies against: the kit's trust kids, then each `--accept-kid` (repeatable, or comma-separated).
 *
 * @param values - The option's values, in order.
 * @returns The accepted kids, each once.
 * @throws {@link InvalidArgumentError} for a value that is not a key id.
 */
export function parseAcceptedKids(values: readonly string[]): readonly string[] {
  const given = values.flatMap((value) => value.split(",")).map((kid) => kid.trim());
  for (const kid of given) {
    if (!KID.test(kid)) {
      throw new InvalidArgumentError(`--accept-kid must be a key id (letters, digits and ._:-, as the JWKS names it), got "${kid}"`);
    }
  }
  return [...new Set([...TRUST_ATTESTATION_KIDS, ...given])];
}

/**
 * The `--accept-kid` option, in a command's help group.
 *
 * @param group - The help group it is listed in.
 * @returns The option's declaration.
 */
export function acceptKidOption<const Group extends string>(
  group: Group,
): Omit<RepeatableOption, "parse"> & {
  readonly name: "accept-kid";
  readonly kind: "repeatable";
  readonly group: Group;
  readonly parse: (values: readonly string[]) => readonly string[];
} {
  return {
    name: "accept-kid",
    kind: "repeatable",
    arg: "kid",
    group,
    description: `Also accept attestations signed under this key id (repeatable), besides ${TRUST_ATTESTATION_KIDS.join(" and ")}: the service's next kid after a key rotation, before the kit knows it; its key must still be in the issuer's JWKS`,
    parse: (values: readonly string[]) => parseAcceptedKids(values),
  };
}
