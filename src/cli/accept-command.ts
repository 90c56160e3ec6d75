/**
 * `trustgate accept`: writes a baseline of known problems for `trustgate drift --accept` from a JSON report — one
 * entry per decision flip and invalid attestation of the report (`problemOf`), each with the reason and end given.
 * An existing baseline keeps its entries as they are (their reasons and ends included) and gets the entries it lacks;
 * the file is checked as `--accept` reads it before anything is written, and replaced whole (a temporary file renamed
 * over it). Exit 0 when written, 2 for a usage error (an unreadable report or baseline, a bad option).
 *
 * @packageDocumentation
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { formatAgentRef, agentKey } from "../agent/agent-ref.js";
import { baselineLine } from "../drift/baseline.js";
import { problemOf } from "../drift/since-last-night.js";
import type { DriftRow } from "../drift/types.js";
import { InvalidArgumentError, messageOf } from "../errors.js";
import { sanitizeText } from "../security/outside-text.js";
import { parseAcceptArgs } from "./accept-args.js";
import { readBaselineFile } from "./baseline-file.js";
import { checkFileTarget } from "./file-target.js";
import { ACCEPT_HELP } from "./help.js";
import type { CliIo } from "./io.js";

/**
 * Runs `trustgate accept <argv>`.
 *
 * @param argv - The arguments after `accept`.
 * @param cli - Streams.
 * @param now - The clock (for `--until`).
 * @returns 0 when the baseline was written (or for `--help`).
 * @throws {@link InvalidArgumentError} for a bad option, a `--to` that cannot be written there, a report that cannot be
 *   read or is not a drift report, or a baseline the format refuses.
 */
export async function acceptCommand(argv: readonly string[], cli: Pick<CliIo, "stdout" | "stderr">, now?: () => Date): Promise<number> {
  const args = parseAcceptArgs(argv, now);
  if (args.kind === "help") {
    cli.stdout.write(ACCEPT_HELP);
    return 0;
  }
  await checkFileTarget("--to", args.to);
  const rows = reportRows(args.from);
  const existing = existsSync(args.to) ? readBaselineFile(args.to) : undefined;
  const have = new Set((existing?.entries ?? []).map((e) => `${e.key} ${e.problem}`));
  const added: string[] = [];
  for (const row of rows) {
    const problem = problemOf(row);
    if (problem === null || have.has(`${agentKey(row)} ${problem}`)) continue;
    have.add(`${agentKey(row)} ${problem}`);
    added.push(baselineLine({ agent: formatAgentRef(row), problem, reason: args.reason, until: args.until }));
  }
  const before = existing ? readFileSync(args.to, "utf8") : "";
  const text = `${before}${before === "" || before.endsWith("\n") ? "" : "\n"}${added.map((line) => `${line}\n`).join("")}`;
  const temporary = `${args.to}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, args.to);
  const kept = existing ? `; ${existing.entries.length} already there kept` : "";
  cli.stderr.write(`trustgate: ${added.length} problems accepted until ${sanitizeText(args.until)} in ${sanitizeText(args.to)}${kept}\n`);
  return 0;
}

/** The rows of a JSON drift report. */
function reportRows(file: string): readonly DriftRow[] {
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InvalidArgumentError(`--from ${file}: cannot read the JSON report (${messageOf(error)})`);
  }
  const agents = (report as { agents?: unknown } | null)?.agents;
  if (!Array.isArray(agents) || !agents.every(isRow)) {
    throw new InvalidArgumentError(
      `--from ${file}: not a trustgate drift JSON report (no "agents" rows with chain, agentId, registry, status, decision)`,
    );
  }
  return agents;
}

function isRow(value: unknown): value is DriftRow {
  const row = value as Partial<DriftRow> | null;
  return (
    typeof row === "object" &&
    row !== null &&
    typeof row.chain === "string" &&
    typeof row.agentId === "string" &&
    typeof row.registry === "string" &&
    typeof row.status === "string" &&
    typeof row.decision === "object" &&
    row.decision !== null
  );
}
