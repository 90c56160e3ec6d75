/**
 * Help texts of the command line.
 *
 * @packageDocumentation
 */
import { formatDoctorOptionsHelp } from "./doctor-options.js";
import { DRIFT_STATUS_MEANINGS, DRIFT_STATUSES } from "../drift/types.js";
import { formatDriftOptionsHelp } from "./drift-options.js";
import { formatAcceptOptionsHelp } from "./accept-args.js";
import { formatRefreshOptionsHelp } from "./refresh-options.js";
import { formatWatchOptions } from "./watch-options.js";

/** Help of `trustgate` itself (`trustgate --help`, or `trustgate` with no command). */
export const MAIN_HELP = `Usage: trustgate <command> [options]

Commands:
  drift        Compare on-chain trust records with the service's signed attestations
               and report which gate decisions would change (see trustgate drift --help)
  doctor       Check the kit's assumptions about the service and the chain against the
               real ones: which hold, which differ (see trustgate doctor --help)
  accept       Write a baseline of known problems (drift --accept) from a JSON report
               (see trustgate accept --help)
  refresh      Push fresh signed attestations to an AttestedTrustOracle for the rows of a
               drift report that are due (see trustgate refresh --help)
  watch        Follow the oracle as a service: check each record written against a fresh
               signed attestation, watch the oracle's heartbeat, alert (see trustgate watch --help)

Options:
  -h, --help   Show this help (trustgate help <command>: the help of a command)
  --version    Print the version
`;

/** The statuses and their meanings, one line each, for the drift help. */
function formatStatusesHelp(): string {
  const width = Math.max(...DRIFT_STATUSES.map((status) => status.length));
  return DRIFT_STATUSES.map((status) => `  ${status.padEnd(width)}  ${DRIFT_STATUS_MEANINGS[status]}\n`).join("");
}

/**
 * Help of `trustgate drift` (`trustgate drift --help`): what the command does, its options (generated from
 * `DRIFT_OPTIONS`), exit codes, environment and examples.
 */
export const DRIFT_HELP = `Usage: trustgate drift [options]

Reads each agent's record in the on-chain trust oracle, asks the trust service for its signed
attestation, verifies the signature against the issuer's JWKS, and reports which gate decisions
would change. Give the chain with --rpc and the service with --api; --demo runs against the
embedded local Base chain and trust service instead (synthetic data, no network needed) and
covers every agent that service lists.

${formatDriftOptionsHelp()}
Statuses (one per agent, worst first):
${formatStatusesHelp()}
Exit codes (after a scan, the first that applies):
  4  the run could not verify enough to be trusted: more agents in error or
     missing-attestation than --max-errors allows, no agent scanned at all, or the
     run stopped before fetching everything (partial: --max-duration, or the service
     or the RPC stopped answering, --max-network-failures)
     (wins over 3: the summary still names flips and invalid attestations)
  3  at least one decision flip or invalid attestation (with --fail-on new: at least one
     new since the night before and not accepted)
  0  none of the above
  (rows a signed attestation could refresh on-chain, REFRESH yes, change nothing here)
  A report file that cannot be written after the scan keeps 3 or 4 and makes 0 a 1;
  the summary and the verdict come first, then one line per file not written.
  With --refresh: the larger of the scan's code and the refresh's (3 when a due attestation
  was not pushed); 2 when the refresh cannot start (no DEPLOYER_PRIVATE_KEY, a mainnet
  without --confirm-mainnet), after the scan's documents are written.
Before or instead of a scan:
  2  usage or configuration error (bad flag, agent, address, duration or limit; no --rpc
     or --api without --demo; --demo without hardhat installed; chain or API unreachable
     before the scan starts; an output path that cannot be written; a state file that
     is malformed or written for another oracle, chain, API, rule or encoding)
  1  the scan failed unexpectedly
  130  interrupted (Ctrl-C); with --state, the same command continues where it stopped

Environment:
  TRUSTGATE_API_KEY  API key, when --api-key is not given
  CI                 When set, no progress bar
  TRUSTGATE_DEBUG    When set, unexpected errors are printed with their stack trace

Examples:
  trustgate drift --demo
  trustgate drift --rpc https://mainnet.base.org --api https://rnwy.com --all --json report.json
  trustgate drift --rpc http://127.0.0.1:8545 --api http://127.0.0.1:8787 --all --timeout 10s
  trustgate drift --rpc $BASE_RPC_URL --api https://rnwy.com --all --state drift-state.jsonl \\
                  --max-duration 50m --json report.json
  trustgate drift --rpc $BASE_RPC_URL --api https://rnwy.com --all --attested-oracle 0x...
  trustgate drift --rpc $BASE_RPC_URL --api https://rnwy.com --agents base:1234,base:77 \\
                  --gate 0x... --json - | jq .summary
`;

/**
 * Help of `trustgate doctor` (`trustgate doctor --help`): what the command checks, its options (generated from
 * `DOCTOR_OPTIONS`), exit codes, environment and examples.
 */
export const DOCTOR_HELP = `Usage: trustgate doctor --api <url> [options]

Checks, against the live trust service (and chain, with --rpc), every assumption the kit
makes about them, and prints one line per check: holds, DIFFERS (with what it saw) or
could not check (with why). About fifteen requests to the service, within its rate limit.
Attach the JSON form (--json) to a bug report: it holds no API key and no URL credential.

Checks:
  sig-bytes                 Which bytes the raw sig of a trust-check covers (insertion order,
                            sorted keys, or neither), with the JWKS key of its kid
  jws-header                The JWS header of a trust-check: members, order, whether the kit's
                            JWS rules accept it
  jws-payload               The JWS payload against signed: same bytes, same value in another
                            serialisation, or another value
  jwks-kids                 The JWKS kids against the expected ones; each key ES256 P-256
  rate-limit-headers        Whether the service announces its rate limits, against the assumed
                            30/300 per minute (risk-terms 5/60)
  fields:<endpoint>         The member names and types of one answer of each endpoint the kit
                            reads, against the kit's published shape
  onchain-encodings         Tier and sybil codes of on-chain records against the listing, under
                            the configured encoding (needs --rpc)
  onchain-p256              What answers P-256 verification at 0x100, which the attested oracle
                            trusts: a precompile or not, its price (needs --rpc)
  onchain-submit            Whether a live attestation is accepted by the kit's
                            AttestedTrustOracle in an eth_call on a local chain (Hardhat's
                            in-process network, or a local fork of --rpc); needs hardhat
  time-forms                How each signed time of a trust-check is written (Z or an offset,
                            fraction digits), and whether the TypeScript and the on-chain
                            readers accept it (the on-chain one through onchain-submit)

${formatDoctorOptionsHelp()}
Exit codes:
  0  every check holds
  3  at least one check differs (wins over 4)
  4  nothing differs, but at least one check could not be made
  2  usage or configuration error (bad flag or value, no --api), or the service never
     answered (one line, as trustgate drift says it)
  1  unexpected failure

Environment:
  TRUSTGATE_API_KEY  API key, when --api-key is not given
  TRUSTGATE_DEBUG    When set, unexpected errors are printed with their stack trace

Examples:
  trustgate doctor --api https://rnwy.com
  trustgate doctor --api https://rnwy.com --rpc $BASE_RPC_URL --json doctor.json
  TRUSTGATE_API_KEY=... trustgate doctor --api https://rnwy.com --json - | jq .summary
`;

/**
 * Help of `trustgate accept` (`trustgate accept --help`): what it writes, its options (generated from
 * `ACCEPT_OPTIONS`), the file's format and an example.
 */
export const ACCEPT_HELP = `Usage: trustgate accept --from <report.json> --reason <text> --until <date> --to <baseline.jsonl>

Writes a baseline of known problems for trustgate drift --accept: one line per decision flip and
invalid attestation of the JSON report, each with the reason and the end given. A problem the
baseline covers is still reported, as accepted; with --fail-on new it no longer exits 3. An
existing baseline keeps its entries and gets those it lacks.

${formatAcceptOptionsHelp()}
Baseline format (JSON Lines; blank lines and lines starting with # are skipped):
  {"agent":"base:357:erc8004","problem":"pass-to-fail","reason":"…","until":"2026-12-31"}
  problem: pass-to-fail, fail-to-pass or invalid-attestation

Exit codes:
  0  written
  2  usage error (a missing option, an --until that has passed, a report or baseline that
     cannot be read)

Example:
  trustgate accept --from report.json --reason "oracle unwritten, ticket OPS-12" --until 2026-12-31 \\
                   --to baseline.jsonl
  trustgate drift --rpc $BASE_RPC_URL --api https://rnwy.com --all --state drift-state.jsonl \\
                  --accept baseline.jsonl --fail-on new --json report.json
`;

/**
 * Help of `trustgate refresh` (`trustgate refresh --help`): what the command does, its options (generated from
 * `REFRESH_OPTIONS`), the push rules and the exit codes.
 */
export const REFRESH_HELP = `Usage: trustgate refresh <source> [options]
  <source>: --from <report.json>, --watch <file>, --state <file> or --gate <address>

Pushes the service's fresh signed attestations to an AttestedTrustOracle for the rows of a drift
report that are due, in submitJwsAttestations batches, and nothing else: a row is due when the
gate's decision flips, the oracle holds no record, the record is older than --max-age, or the score
moved by more than --min-change; never when the oracle would treat the attestation as a no-op.
--dry-run prints the plan and sends nothing.

The rows come from one source: --from a drift JSON report; or a fresh drift run (as trustgate drift
--agents … --attested-oracle) over the agents of a watch list (--watch), of the drift job's state
file (--state: its agents, oracle, attested oracle, rule and encoding), or of a gate (--gate: the
agents its attested oracle or that oracle's upstream holds records of under the gate's agent chain
and registry, found from their RecordAdded events, since a gate emits no event naming the agents it
is asked about; an agent never recorded is not found: watch it). trustgate drift … --refresh
refreshes from the report it has just made.

${formatRefreshOptionsHelp()}
Exit codes:
  4  the run stopped short: the fee ceiling (--max-fee-per-gas) or the budget (--budget)
     stopped it (what was not sent is reported as stopped), or the fresh drift run of
     --watch, --state or --gate could not verify enough agents (as drift's 4: what is due
     is not all known; what was found due is still pushed)
  3  some due attestation was not pushed (refused by the oracle's pre-check, a revoked kid
     included, the service gave none that verified, or its nonce was taken by another sender),
     or a row out of line had no attestation that verified (invalid-attestation, error)
  2  a usage error (a bad option, an unreadable report, a mainnet without --confirm-mainnet)
  0  everything due was pushed or is already current, or a dry run

Environment:
  DEPLOYER_PRIVATE_KEY  the key that sends (never printed), when --keystore is not given
  KEYSTORE_PASSWORD     the password of --keystore (else it is asked for on the terminal)
  TRUSTGATE_API_KEY     API key of the service, when --api-key is not given
`;

/**
 * Help of `trustgate watch` (`trustgate watch --help`): what the command does, its options (generated from
 * `WATCH_OPTIONS`), its signals, exit codes and environment.
 */
export const WATCH_HELP = `Usage: trustgate watch --rpc <url> --api <url> [options]

Runs until stopped, following the chain: each record the oracle writes (RecordAdded,
RecordUpdated; with --attested-oracle also RecordSignedBy and key revocations), once
--confirmations blocks deep, is compared with a fresh signed attestation of its agent under the
drift job's rules; a reorg is read again. Between writes, a slow audit walks every agent the
service lists within --audit-share of the rate limit. It alerts on a decision flip or an invalid
attestation (the problems the drift report's "since last night" counts), a record older than
--max-age, the oracle's silence past its cadence (keyed on the records' own times), and a service
whose answers, JWKS or kids fail; once per problem, again after --reminder, and resolved when gone.

${formatWatchOptions()}
Signals:
  SIGTERM, SIGINT  finish the checks and alerts in flight, save --state, exit 0 (a second one
                   exits at once with 130; the state holds the last poll saved)

Exit codes:
  0  stopped by SIGTERM or SIGINT, drained
  2  a usage or configuration error (a bad option, a chain or service that does not answer at
     start, a state file written for another chain or oracle)
  1  an unexpected failure

Environment:
  TRUSTGATE_WEBHOOK_SECRET  the HMAC-SHA256 key of --webhook's signature (required with it)
  TRUSTGATE_API_KEY         API key of the service, when --api-key is not given
`;
