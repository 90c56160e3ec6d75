/**
 * Deployment of the kit's gates, reference oracle and attested oracle (used by `scripts/deploy.ts`), and the
 * installation of the service's signing keys on an attested oracle (`scripts/keys.ts`).
 *
 * @packageDocumentation
 */
export * from "./config.js";
export * from "./deploy.js";
export * from "./deployments-file.js";
export * from "./gate-requirements.js";
export * from "./key-selection.js";
export * from "./rpc-url.js";
export { chainOf, unreachableNodeError } from "./sender.js";
export { ATTESTED_ORACLE } from "./attested-oracle-target.js";
export * from "./jwks-source.js";
export * from "./key-records.js";
export { describeChange, plannedChange, type SigningKeyChange, type SigningKeyChangeKind } from "./signing-key-changes.js";
export * from "./signing-keys.js";
