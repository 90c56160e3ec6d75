/**
 * The one constructor of a vector from its parts, so that every definition file writes the same layout, and
 * the verdicts the definitions share.
 */
import type {
  OffchainExpectation,
  OnchainExpectation,
  OnchainRecord,
  SigBytes,
  TrustCheckVector,
  VectorCall,
  VectorCategory,
} from "../format";
import { VECTOR_NOW } from "./responses";

/** A vector as a definition writes it. */
export interface VectorDraft {
  id: string;
  covers: string[];
  description: string;
  response: Record<string, unknown>;
  call: VectorCall | null;
  offchain: OffchainExpectation;
  onchain: OnchainExpectation | null;
  /** Default {@link VECTOR_NOW}. */
  now?: string;
  options?: TrustCheckVector["options"];
  sigBytes?: SigBytes;
  onchainReason?: string;
  forged?: string;
  divergence?: string;
}

/**
 * Builds a vector in the file layout (fields in a fixed order, absent ones left out).
 *
 * @param category - Its group.
 * @param draft - Its parts.
 * @returns The vector.
 */
export function vectorOf(category: VectorCategory, draft: VectorDraft): TrustCheckVector {
  const vector: TrustCheckVector = {
    id: draft.id,
    category,
    covers: draft.covers,
    description: draft.description,
    now: draft.now ?? VECTOR_NOW,
    ...(draft.options ? { options: draft.options } : {}),
    response: draft.response,
    ...(draft.forged ? { forged: draft.forged } : {}),
    ...(draft.divergence ? { divergence: draft.divergence } : {}),
    call: draft.call,
    expected: {
      offchain: draft.offchain,
      ...(draft.sigBytes ? { sigBytes: draft.sigBytes } : {}),
      onchain: draft.onchain,
      ...(draft.onchainReason ? { onchainReason: draft.onchainReason } : {}),
    },
  };
  return vector;
}

/** A valid v2 verdict. */
export const VALID_V2: OffchainExpectation = { valid: true, version: "v2" };

/**
 * A refusal off-chain.
 *
 * @param reason - The reason code.
 * @param field - The field it names, if any.
 * @returns The verdict.
 */
export function refused(reason: string, field?: string): OffchainExpectation {
  return field === undefined ? { valid: false, reason } : { valid: false, reason, field };
}

/**
 * An accepted submission.
 *
 * @param record - The record stored.
 * @returns The verdict.
 */
export function accepted(record: OnchainRecord): OnchainExpectation {
  return { accepted: record };
}

/**
 * A reverted submission.
 *
 * @param error - The custom error's name.
 * @param args - Some of its named arguments.
 * @returns The verdict.
 */
export function reverts(error: string, args?: Record<string, string | number>): OnchainExpectation {
  return args === undefined ? { error } : { error, args };
}
