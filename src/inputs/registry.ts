/**
 * Registry names, as every entry point accepts them: one of the service's registries (`erc8004`, `olas`,
 * `virtuals`, `sati`), in any case, without surrounding white space.
 *
 * @packageDocumentation
 */
import { DEFAULT_REGISTRY, REGISTRIES, type RegistryName } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";
import { closestName } from "../util/suggest.js";
import { describeInput } from "./describe.js";

/** The outcome of {@link inspectRegistry}. */
export type RegistryInspection =
  | { readonly ok: true; readonly registry: RegistryName }
  | {
      readonly ok: false;
      /** What is wrong, for example `unknown registry "nowhere"`. */
      readonly problem: string;
      /** The known registries, and the closest one when there is one. */
      readonly details: string;
    };

/**
 * The registry in a value, or why there is none — the one rule, shared by {@link parseRegistry} and the
 * agent-reference parser (which words its own message).
 *
 * @param value - Anything.
 * @returns The lower-case registry name, or a problem with details.
 */
export function inspectRegistry(value: unknown): RegistryInspection {
  const known = `Known registries: ${REGISTRIES.join(", ")}`;
  if (typeof value !== "string" || value === "")
    return { ok: false, problem: `registry ${describeInput(value)} is not a registry name`, details: known };
  if (value.trim() !== value) {
    return { ok: false, problem: `registry ${describeInput(value)} has white space around it`, details: known };
  }
  const name = value.toLowerCase();
  if ((REGISTRIES as readonly string[]).includes(name)) return { ok: true, registry: name as RegistryName };
  const suggestion = closestName(name, REGISTRIES);
  return {
    ok: false,
    problem: `unknown registry ${describeInput(value)}${suggestion ? ` (did you mean "${suggestion}"?)` : ""}`,
    details: known,
  };
}

/**
 * Parses a registry name.
 *
 * @param value - A registry name (case-insensitive); `undefined` gives the default, `erc8004`.
 * @param label - The argument's name, for the error message.
 * @returns The lower-case registry name.
 * @throws {@link InvalidArgumentError} for anything else (empty, white space around it, a registry the
 *   service does not have), with the closest known name as a suggestion.
 */
export function parseRegistry(value: unknown, label = "registry"): RegistryName {
  if (value === undefined) return DEFAULT_REGISTRY;
  const checked = inspectRegistry(value);
  if (checked.ok) return checked.registry;
  throw new InvalidArgumentError(`Invalid ${label}: ${checked.problem}`, { details: checked.details });
}
