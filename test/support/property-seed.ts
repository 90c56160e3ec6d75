/**
 * fast-check's seed for every property test of the suite. A vitest setup file (`setupFiles` of vitest.config.mts and
 * vitest.unit.config.mts), so that no property test can run without it:
 *
 * - `FC_SEED=<integer>` replays a run (a failing property prints its seed and path);
 * - under CI (`CI` set), {@link CI_PROPERTY_SEED}: the same inputs on every run, so that CI never fails at random;
 * - otherwise a fresh seed on every run, which explores new inputs; a failure prints the seed to replay with `FC_SEED`.
 */
import fc from "fast-check";

/** The seed of every property test under CI. */
export const CI_PROPERTY_SEED = 31_2026;

/**
 * The seed the property tests run with, from the environment.
 *
 * @param env - The environment (`FC_SEED`, `CI`).
 * @returns The seed, or `undefined` for a fresh one.
 * @throws Error when `FC_SEED` is not an integer.
 */
export function propertySeed(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const given = env.FC_SEED?.trim();
  if (given !== undefined && given !== "") {
    const value = Number(given);
    if (!Number.isSafeInteger(value)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(given)}`);
    return value;
  }
  return env.CI !== undefined && env.CI !== "" && env.CI !== "false" ? CI_PROPERTY_SEED : undefined;
}

const seed = propertySeed(process.env);
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
