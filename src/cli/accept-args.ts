/**
 * The options and arguments of `trustgate accept`, which writes a baseline of known problems (`--accept` of
 * `trustgate drift`) from a JSON report: the option table (declared once, as for the other commands: the `parseArgs`
 * configuration, the help and the typed values come from it) and its validation.
 *
 * Decisions:
 * - `--from`, `--reason`, `--until` and `--to` are all required: an acceptance without a reason or an end is what the
 *   baseline exists to prevent.
 * - `--until` is a date (accepted through that day, UTC) or an ISO-8601 time with its offset, and must be in the
 *   future: an acceptance that has already ended accepts nothing.
 *
 * @packageDocumentation
 */
import { parseUntil } from "../drift/baseline.js";
import { InvalidArgumentError } from "../errors.js";
import { checkOptionScope, type CommandOption, formatOptionGroup, parseOptionValues, readRawOptions } from "./option-table.js";
import { parseNonBlank } from "./shared-args.js";

/** The options of `trustgate accept`, in the order the help lists them. */
export const ACCEPT_OPTIONS = [
  {
    name: "from",
    kind: "string",
    arg: "report.json",
    group: "options",
    description: "The JSON report of trustgate drift (--json) whose decision flips and invalid attestations to accept",
    parse: (value: string) => parseNonBlank("--from", value, "a file name"),
  },
  {
    name: "reason",
    kind: "string",
    arg: "text",
    group: "options",
    description: "Why they are accepted (a ticket, who decided): written on every entry",
    parse: (value: string) => parseNonBlank("--reason", value, "a reason"),
  },
  {
    name: "until",
    kind: "string",
    arg: "date",
    group: "options",
    description: "When the acceptance ends: a date (2026-12-31, through that day, UTC) or an ISO-8601 time with its offset",
    parse: (value: string) => value,
  },
  {
    name: "to",
    kind: "string",
    arg: "file",
    group: "options",
    description:
      "The baseline file (JSON Lines) to write: created when missing; an existing one keeps its entries, and gets those it lacks",
    parse: (value: string) => parseNonBlank("--to", value, "a file name"),
  },
  { name: "help", kind: "boolean", short: "h", group: "options", description: "Show this help" },
] as const satisfies readonly CommandOption<never>[];

/** A validated `trustgate accept` invocation. */
export interface AcceptRunArgs {
  readonly kind: "run";
  /** `--from`: the JSON report. */
  readonly from: string;
  /** `--reason`. */
  readonly reason: string;
  /** `--until`, as written (it goes into the file so). */
  readonly until: string;
  /** `--to`: the baseline file. */
  readonly to: string;
}

/**
 * Parses and validates the arguments of `trustgate accept`.
 *
 * @param argv - The arguments after `accept`.
 * @param now - The clock (`--until` must be after it).
 * @returns `{ kind: "help" }` for `--help`, else the validated arguments.
 * @throws {@link InvalidArgumentError} (one line) for an unknown option, a missing one, or an `--until` that is not a
 *   date or time, or has passed.
 */
export function parseAcceptArgs(argv: readonly string[], now: () => Date = () => new Date()): { readonly kind: "help" } | AcceptRunArgs {
  const raw = readRawOptions(ACCEPT_OPTIONS, argv, "trustgate accept");
  if (raw.help) return { kind: "help" };
  checkOptionScope(ACCEPT_OPTIONS, raw);
  const values = parseOptionValues(ACCEPT_OPTIONS, raw, undefined as never);
  for (const name of ["from", "reason", "until", "to"] as const) {
    if (values[name] === undefined) {
      throw new InvalidArgumentError(
        `trustgate accept needs --${name} (usage: trustgate accept --from report.json --reason <text> --until <date> --to baseline.jsonl)`,
      );
    }
  }
  const until = parseUntil(values.until!);
  if (until === null) {
    throw new InvalidArgumentError(`--until must be a date (2026-12-31) or an ISO-8601 time with its offset, got "${values.until!}"`);
  }
  if (until.getTime() <= now().getTime()) {
    throw new InvalidArgumentError(`--until ${values.until!} has passed: an acceptance that has ended accepts nothing`);
  }
  return { kind: "run", from: values.from!, reason: values.reason!, until: values.until!, to: values.to! };
}

/**
 * The options' part of `trustgate accept --help`.
 *
 * @returns The text, ending with a newline.
 */
export function formatAcceptOptionsHelp(): string {
  return `Options:\n${formatOptionGroup(ACCEPT_OPTIONS, "options")}`;
}
