/**
 * Deployment of the kit's gates and reference oracle (used by `scripts/deploy.ts`).
 *
 * @packageDocumentation
 */
export * from "./config.js";
export * from "./deploy.js";
export * from "./deployments-file.js";
export * from "./rpc-url.js";
