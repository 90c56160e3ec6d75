/**
 * The doctor option table against what is generated from it: every entry is in the help under its section, is
 * accepted by the parser with its kind, and its scope rules are enforced, each read from the table.
 */
import { describe, expect, it } from "vitest";
import { parseDoctorArgs } from "../../src/cli/doctor-args";
import { DOCTOR_HELP_GROUPS, DOCTOR_OPTIONS, type DoctorOption } from "../../src/cli/doctor-options";
import { DOCTOR_HELP } from "../../src/cli/help";
import { parseArgsConfigOf, readRawOptions } from "../../src/cli/option-table";
import { InvalidArgumentError } from "../../src/errors";

const TABLE: readonly DoctorOption[] = DOCTOR_OPTIONS;
const API = "--api=http://127.0.0.1:2";

/** What parsing throws (a one-line usage error), or `undefined` when it parses. */
function refusal(argv: string[]): string | undefined {
  try {
    parseDoctorArgs(argv, { env: {}, readFile: () => '{"keys":[{"kty":"EC"}]}' });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    const message = (error as InvalidArgumentError).shortMessage;
    expect(message).not.toContain("\n");
    return message;
  }
}

describe("the doctor option table", () => {
  it("names each option once, with scope references that exist", () => {
    const names = new Set(TABLE.map((option) => option.name));
    expect(names.size).toBe(TABLE.length);
    for (const option of TABLE) if (option.scope?.needs) expect(names).toContain(option.scope.needs.option);
  });
});

describe.each(TABLE.map((option) => [option.name, option] as const))("--%s", (name, option) => {
  it("is in the help under its section, with its argument", () => {
    const lines = DOCTOR_HELP.split("\n");
    const start = lines.indexOf(DOCTOR_HELP_GROUPS[option.group]);
    const section = lines.slice(start + 1, lines.indexOf("", start));
    const label = `${option.short !== undefined ? `-${option.short}, ` : ""}--${name}${option.kind === "boolean" ? "" : ` <${option.arg}>`}`;
    expect(section.some((line) => line.startsWith(`  ${label} `) || line === `  ${label}`)).toBe(true);
  });

  it("is accepted by the parser with its kind", () => {
    expect(parseArgsConfigOf(TABLE)[name]!.type).toBe(option.kind === "boolean" ? "boolean" : "string");
    const argv = option.kind === "boolean" ? [`--${name}`] : [`--${name}=1`];
    expect(readRawOptions(TABLE, argv, "trustgate doctor")[name]).toEqual(option.kind === "boolean" ? true : "1");
    if (option.kind !== "boolean") expect(refusal([`--${name}`])).toMatch(new RegExp(`^Option --${name} needs a value`));
  });

  it("enforces its scope rules", () => {
    const needs = option.scope?.needs;
    if (needs === undefined) return;
    expect(refusal([API, `--${name}=1`])).toBe(needs.message);
    expect(refusal([API, `--${name}=1`, `--${needs.option}=http://127.0.0.1:3`])).not.toBe(needs.message);
  });
});
