/**
 * The doctor's report as people read it (a table: check, result, what it saw) and as a bug report carries it (JSON).
 * Both come from a report whose strings are already free of secrets (`runDoctor` removes them); the table also
 * passes every cell through the sanitiser of outside text, since a check quotes what the service sent.
 *
 * @packageDocumentation
 */
import { sanitizeText } from "../security/outside-text.js";
import type { CheckStatus, DoctorReport } from "./report.js";

/** How each status is written in the table (a difference stands out). */
export const STATUS_LABELS: Readonly<Record<CheckStatus, string>> = {
  holds: "holds",
  differs: "DIFFERS",
  "could-not-check": "could not check",
};

/** Options of {@link formatDoctorTable}. */
export interface DoctorTableOptions {
  /** Width to fit (the terminal's); the last column wraps onto indented lines. Default: no limit. */
  readonly columns?: number | undefined;
}

/** Narrowest last column the table wraps to, whatever the terminal's width. */
const MIN_DETAIL_WIDTH = 30;

/**
 * The report as a table with a heading line and a summary line.
 *
 * @param report - The report.
 * @param options - Width.
 * @returns The text, ending with a newline.
 */
export function formatDoctorTable(report: DoctorReport, options: DoctorTableOptions = {}): string {
  const rows = report.checks.map((check) => [check.id, STATUS_LABELS[check.status], check.summary].map((cell) => sanitizeText(cell)));
  const header = ["CHECK", "RESULT", "WHAT IT SAW"];
  const idWidth = Math.max(header[0]!.length, ...rows.map((r) => r[0]!.length));
  const statusWidth = Math.max(header[1]!.length, ...rows.map((r) => r[1]!.length));
  const indent = idWidth + statusWidth + 4;
  const detailWidth = options.columns === undefined ? Infinity : Math.max(MIN_DETAIL_WIDTH, options.columns - indent);
  const line = (cells: readonly string[]) => {
    const [first, ...rest] = wrap(cells[2]!, detailWidth);
    const head = `${cells[0]!.padEnd(idWidth)}  ${cells[1]!.padEnd(statusWidth)}  ${first ?? ""}`.trimEnd();
    return [head, ...rest.map((part) => `${" ".repeat(indent)}${part}`)].join("\n");
  };
  const { target, summary } = report;
  const chain = target.rpc !== undefined ? `; chain ${target.rpc}, oracle ${target.oracle}` : "; no chain (--rpc)";
  const heading = sanitizeText(
    `trustgate doctor ${report.version}: ${target.api} (issuer ${target.issuer}, keys ${target.jwks}${target.apiKey ? ", with an API key" : ""})${chain}; ${report.requests} requests`,
  );
  const counts = `${summary.holds} hold, ${summary.differs} differ${summary.differs === 1 ? "s" : ""}, ${summary.couldNotCheck} could not be checked`;
  return `${heading}\n\n${[line(header), ...rows.map(line)].join("\n")}\n\n${counts}: exit ${summary.exitCode}\n`;
}

/**
 * The report as JSON (two-space indented), to attach to a bug report.
 *
 * @param report - The report.
 * @returns The text, ending with a newline.
 */
export function formatDoctorJson(report: DoctorReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    if (current !== "" && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current === "" ? word : `${current} ${word}`;
    }
  }
  if (current !== "") lines.push(current);
  return lines;
}
