/**
 * The package entry `trustgate/deploy`: what a deployer calls from their own scripts, listed by name. `deploy`
 * deploys the gates, the reference oracle and the attested oracle a network's configuration names and records
 * them in `deployments/<chainId>.json`; `updateSigningKeys` and `listKeyRecords` install, revoke and audit the
 * service's signing keys on an attested oracle. (`scripts/deploy.ts` and `scripts/keys.ts` are thin shells over
 * these.)
 *
 * @packageDocumentation
 * @module trustgate/deploy
 */

export {
  type AttestedOracleDeployConfig,
  DEPLOYABLE_CONTRACTS,
  type DeployableContract,
  type DeployConfig,
  type DeployPolicy,
  loadDeployConfig,
  type NetworkDeployConfig,
  networkConfig,
  parseDeployConfig,
} from "./config.js";
export { deploy, type DeployAction, type DeployErrorType, type DeployParameters, type DeployResult } from "./deploy.js";
export {
  type DeploymentRecord,
  type DeploymentsFile,
  type JsonValue,
  readDeploymentsFile,
  type ReplacedDeployment,
} from "./deployments-file.js";
export { type KeySelection, type LoadedJwks, parseThumbprintPins, type SelectedSigningKey } from "./key-selection.js";
export { type ResolvedRpcUrl, RPC_URL_VARIABLE, resolveRpcUrl } from "./rpc-url.js";
export { DEPLOYER_KEY_VARIABLE, type DeployProvider } from "./sender.js";
export { type LoadJwksParameters, loadJwks } from "./jwks-source.js";
export { type KeyRecordsJson, type KeyRecordsListing, type ListKeyRecordsParameters, listKeyRecords } from "./key-records.js";
export { type SigningKeyChange, type SigningKeyChangeKind } from "./signing-key-changes.js";
export { type SigningKeysResult, type UpdateSigningKeysParameters, updateSigningKeys } from "./signing-keys.js";
export {
  DEPLOYMENT_FAILURE_REASONS,
  DeploymentError,
  type DeploymentFailureReason,
  type TrustgateErrorCode,
  type TrustgateErrorParameters,
} from "../errors.js";
export type { RecordsSignedBy, SignedRecord } from "../oracle/records-by-key.js";
