/**
 * The harness: what stands in for the outside world, for tests, demos and local development. Exported as
 * `trustgate/harness` (`trustgate/service` and `trustgate/testing` are its two best-known parts):
 *
 * - the local signing service (`startTrustService`, synthetic populations), `./service/`;
 * - the local Base simulation and the drift job's embedded environment, `./devnet/`;
 * - the Base test context and the oracle override for forks, `./testing/`;
 * - signing helpers (`generateSigningKey`, `createAttestation`, …), `./signing.ts`;
 * - the seeded generator (`createRng`, `hashSeed`), `./prng.ts`;
 * - the environment of `trustgate drift --demo`, `./demo.ts`.
 *
 * The kit (the rest of `src/`) never imports from here. The parts that run a chain need the optional peer
 * dependency `hardhat`.
 *
 * @packageDocumentation
 */

export * from "./demo.js";
export * from "./devnet/index.js";
export * from "./prng.js";
export * from "./service/index.js";
export * from "./signing.js";
export * from "./testing/index.js";
