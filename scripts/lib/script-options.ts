/**
 * The options of the operator scripts that take arguments through npm (`npm run deploy -- …`, `npm run keys -- …`),
 * declared once: the scripts parse their arguments with these tables, and test/docs/shell-blocks.test.ts parses the
 * documented command lines with the same tables, so that a misspelt flag in the docs fails a test.
 *
 * @packageDocumentation
 */
import type { ParseArgsConfig } from "node:util";

/** The options of `scripts/deploy.ts` (`npm run deploy -- …`), for `node:util` `parseArgs`. */
export const DEPLOY_OPTIONS = {
  network: { type: "string" },
  "dry-run": { type: "boolean", default: false },
  "confirm-mainnet": { type: "boolean", default: false },
  "rpc-url": { type: "string" },
  config: { type: "string", default: "deploy/config.json" },
  "deployments-dir": { type: "string", default: "deployments" },
  help: { type: "boolean", short: "h", default: false },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

/** The options of `scripts/keys.ts` (`npm run keys -- …`), for `node:util` `parseArgs`. */
export const KEYS_OPTIONS = {
  network: { type: "string" },
  "rpc-url": { type: "string" },
  oracle: { type: "string" },
  jwks: { type: "string" },
  kid: { type: "string", multiple: true },
  "force-kid": { type: "string", multiple: true },
  thumbprint: { type: "string", multiple: true },
  revoke: { type: "string", multiple: true },
  records: { type: "string" },
  "from-block": { type: "string" },
  json: { type: "string" },
  "dry-run": { type: "boolean", default: false },
  "confirm-mainnet": { type: "boolean", default: false },
  config: { type: "string", default: "deploy/config.json" },
  "deployments-dir": { type: "string", default: "deployments" },
  help: { type: "boolean", short: "h", default: false },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;
