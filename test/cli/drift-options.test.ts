/**
 * The drift option table against what is generated from it: every entry is in the help (under its section, with
 * its scope), is accepted by the parser with its kind, and its scope rules are enforced; each rule is read from the
 * table, not listed here.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AgentRef } from "../../src/agent/agent-ref";
import { parseDriftArgs } from "../../src/cli/drift-args";
import {
  DRIFT_HELP_GROUPS,
  DRIFT_OPTION_NAMES,
  DRIFT_OPTIONS,
  type DriftOption,
  type DriftOptionValues,
} from "../../src/cli/drift-options";
import { DRIFT_HELP } from "../../src/cli/help";
import { parseArgsConfigOf, readRawOptions } from "../../src/cli/option-table";
import { InvalidArgumentError } from "../../src/errors";

const TABLE: readonly DriftOption[] = DRIFT_OPTIONS;
const NAMES = new Set(TABLE.map((option) => option.name));
/** Options another one excludes (an exclusion is declared on one side and holds both ways). */
const EXCLUDED = new Set(TABLE.map((option) => option.scope?.excludes).filter((name) => name !== undefined));

/** `--name` for a flag, `--name=<value>` for an option that takes one. */
function given(option: DriftOption, value = "1"): string[] {
  return option.kind === "boolean" ? [`--${option.name}`] : [`--${option.name}=${value}`];
}

/** What parsing throws (an {@link InvalidArgumentError}'s one-line message), or `undefined` when it parses. */
function refusal(argv: string[]): string | undefined {
  try {
    parseDriftArgs(argv, { env: {}, readFile: () => '{"keys":[{"kty":"EC"}]}' });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    const message = (error as InvalidArgumentError).shortMessage;
    expect(message).not.toContain("\n");
    return message;
  }
}

/** The help lines of one section, from its title to the blank line after it. */
function helpSection(title: string): string[] {
  const lines = DRIFT_HELP.split("\n");
  const start = lines.indexOf(title);
  expect(start, title).toBeGreaterThan(0);
  const end = lines.indexOf("", start);
  return lines.slice(start + 1, end);
}

describe("the drift option table", () => {
  it("names each option once, with sections and scope references that exist", () => {
    expect(NAMES.size).toBe(TABLE.length);
    expect([...DRIFT_OPTION_NAMES]).toEqual(TABLE.map((option) => option.name));
    for (const option of TABLE) {
      expect(Object.keys(DRIFT_HELP_GROUPS), option.name).toContain(option.group);
      for (const other of [option.scope?.excludes, option.scope?.needs?.option, option.scope?.belongsTo]) {
        if (other !== undefined) expect(NAMES, `${option.name} → ${other}`).toContain(other);
      }
    }
  });

  it("types each parsed value from its parse function", () => {
    expectTypeOf<DriftOptionValues["agents"]>().toEqualTypeOf<AgentRef[] | undefined>();
    expectTypeOf<DriftOptionValues["all"]>().toEqualTypeOf<true | undefined>();
    expectTypeOf<DriftOptionValues["concurrency"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<DriftOptionValues["events-from"]>().toEqualTypeOf<bigint | "auto" | "off" | undefined>();
  });
});

describe.each(TABLE.map((option) => [option.name, option] as const))("--%s", (name, option) => {
  it("is in the help under its section, with its argument and what it goes with", () => {
    const label = `${option.short !== undefined ? `-${option.short}, ` : ""}--${name}${option.kind === "boolean" ? "" : ` <${option.arg}>`}`;
    const section = helpSection(DRIFT_HELP_GROUPS[option.group]);
    const at = section.findIndex((line) => line.startsWith(`  ${label} `) || line === `  ${label}`);
    expect(at, label).toBeGreaterThanOrEqual(0);
    const described = section[at] === `  ${label}` ? section[at + 1]! : section[at]!;
    const within = option.scope?.needs?.option ?? option.scope?.belongsTo;
    if (within !== undefined) expect(described).toContain(`With --${within}: `);
  });

  it("is accepted by the parser with its kind (a value, several, or none) and its short form", () => {
    const config = parseArgsConfigOf(TABLE)[name]!;
    expect(config.type).toBe(option.kind === "boolean" ? "boolean" : "string");
    expect(config.multiple === true).toBe(option.kind === "repeatable");
    const raw = readRawOptions(TABLE, given(option), "trustgate drift");
    expect(raw[name]).toEqual(option.kind === "boolean" ? true : option.kind === "repeatable" ? ["1"] : "1");
    if (option.short !== undefined) expect(readRawOptions(TABLE, [`-${option.short}`], "trustgate drift")[name]).toBe(true);
    if (option.kind === "boolean") expect(refusal([`--${name}=x`])).toBe(`Option --${name} does not take a value`);
    else expect(refusal([`--${name}`])).toMatch(new RegExp(`^Option --${name} needs a value`));
  });

  it("refuses a bad value as a one-line usage error, not as an unknown option", () => {
    if (option.kind === "boolean") return;
    expect(refusal(["--demo", `--${name}=\u0001 ,`]) ?? "").not.toMatch(/^Unknown option/);
  });

  it("enforces its scope rules", () => {
    const scope = option.scope;
    if (scope?.belongsTo === "all") {
      expect(refusal(["--demo", "--agents", "base:1", ...given(option)])).toBe(`--${name} applies only to --all, not to an --agents list`);
    }
    if (scope?.excludes !== undefined) {
      const other = TABLE.find((candidate) => candidate.name === scope.excludes)!;
      expect(refusal(["--demo", ...given(option, "base:1"), ...given(other, "base:1")])).toBe(
        `--${name} and --${other.name} exclude each other: give one of them`,
      );
    }
    if (scope?.needs !== undefined) {
      expect(refusal(["--demo", ...given(option)])).toBe(scope.needs.message);
      expect(refusal(["--demo", ...given(option), `--${scope.needs.option}=x`])).not.toBe(scope.needs.message);
    }
    if (scope === undefined && !EXCLUDED.has(name) && name !== "help") {
      // An option without a scope goes with either selection of agents.
      expect(refusal(["--demo", "--agents", "base:1", ...given(option)]) ?? "").not.toMatch(/applies only|exclude each other/);
      expect(refusal(["--demo", "--all", ...given(option)]) ?? "").not.toMatch(/applies only|exclude each other/);
    }
  });
});
