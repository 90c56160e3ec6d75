/**
 * `trustgate doctor`: the kit checks its own assumptions about the service and the chain against the real ones, and
 * reports each as holds, differs (with what it saw) or could not check (with why), as a table and as JSON.
 *
 * @packageDocumentation
 */
export type { SubmissionSimulatorSource } from "./checks/onchain-submit.js";
export { DOCTOR_ENDPOINT_IDS, type DoctorEndpointId } from "./endpoints.js";
export { formatDoctorJson, formatDoctorTable, type DoctorTableOptions, STATUS_LABELS } from "./format.js";
export {
  CHECK_STATUSES,
  type CheckId,
  type CheckResult,
  type CheckStatus,
  DOCTOR_EXIT_CODES,
  type DoctorExitCode,
  type DoctorReport,
  type DoctorSummary,
  type DoctorTarget,
  doctorExitCode,
  ONCHAIN_CHECK_IDS,
  SIGNATURE_CHECK_IDS,
} from "./report.js";
export { DEFAULT_DOCTOR_TIMEOUT_MS, type DoctorConfig, type DoctorDependencies, NO_SIMULATOR, runDoctor } from "./run.js";
export type {
  OracleSubmission,
  SimulatedRecord,
  StartSubmissionSimulator,
  SubmissionOutcome,
  SubmissionSimulator,
  SubmissionSimulatorOptions,
} from "./submission-simulator.js";
