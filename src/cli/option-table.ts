/**
 * A command's options declared once, as a table of {@link CommandOption}s, and what is generated from it: the
 * `node:util` `parseArgs` configuration, the options' part of the `--help` text, the typed values (each option's
 * value through its own `parse`), and the TypeScript type of those values.
 *
 * Scope rules (an option that excludes another, or needs one) are declared on the option and checked from the
 * options given, before any value is parsed; a command may add rules of its own (see `drift-options.ts`).
 *
 * @packageDocumentation
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { InvalidArgumentError } from "../errors.js";
import { translateParseArgsError } from "./parse-args-error.js";

/** Column at which the help's descriptions start (two spaces of indent, then the option's label). */
export const HELP_DESCRIPTION_COLUMN = 28;
/** Longest help line the descriptions are wrapped to. */
export const HELP_LINE_WIDTH = 98;

/** One option of a command. `Context` is what `parse` may need besides the value (a file reader, for instance). */
export type CommandOption<Context = never> = FlagOption | ValueOption<Context> | RepeatableOption<Context>;

/** Which other options an option goes with. */
export interface OptionScope {
  /** An option it cannot be given with (the rule holds both ways; it is declared on one side). */
  readonly excludes?: string;
  /** An option it needs, and the message when that one is missing. */
  readonly needs?: { readonly option: string; readonly message: string };
  /**
   * The option (or mode) it belongs to, when it belongs to one without needing it: the command says what refuses it
   * (the `ownRule` of {@link checkOptionScope}).
   */
  readonly belongsTo?: string;
}

/** What every kind of option declares. */
interface OptionBase {
  /** Long name, without dashes (`max-age`). */
  readonly name: string;
  /** One-letter alias, without the dash (`q`). */
  readonly short?: string;
  /** The help section it is listed under. */
  readonly group: string;
  /**
   * What it does, for the help. Wrapped to {@link HELP_LINE_WIDTH}; a `\n` forces a line break where the
   * wording reads better with one.
   */
  readonly description: string;
  /** Which other options it goes with; default: any. */
  readonly scope?: OptionScope;
}

/** An option that takes no value (`--all`); its value is `true` when given. */
export interface FlagOption extends OptionBase {
  readonly kind: "boolean";
}

/** An option that takes one value (`--rpc <url>`); given twice, the last one counts. */
export interface ValueOption<Context = never> extends OptionBase {
  readonly kind: "string";
  /** The value's name in the help (`url` shows as `<url>`). */
  readonly arg: string;
  /**
   * The value as the command uses it.
   *
   * @throws {@link InvalidArgumentError} with a one-line message naming the option, for a value it refuses.
   */
  readonly parse: (value: string, context: Context) => unknown;
}

/** An option that may be given more than once (`--agents a --agents b`); `parse` gets every value in order. */
export interface RepeatableOption<Context = never> extends OptionBase {
  readonly kind: "repeatable";
  /** The value's name in the help. */
  readonly arg: string;
  /**
   * The values as the command uses them.
   *
   * @throws {@link InvalidArgumentError} with a one-line message naming the option, for a value it refuses.
   */
  readonly parse: (values: readonly string[], context: Context) => unknown;
}

/** The value of one option: `true` for a flag, else what its `parse` returns. */
export type OptionValue<O> = O extends { readonly kind: "boolean" }
  ? true
  : O extends { readonly parse: (...args: never[]) => infer T }
    ? T
    : never;

/** The values of a table's options, each absent when the option is not given. */
export type OptionValues<Table extends readonly CommandOption<never>[]> = {
  readonly [O in Table[number] as O["name"]]?: OptionValue<O>;
};

/** The long names of a table's options. */
export type OptionName<Table extends readonly CommandOption<never>[]> = Table[number]["name"];

/**
 * The `parseArgs` configuration of a table.
 *
 * @param table - The options.
 * @returns One entry per option: its type, whether it repeats, its short alias.
 */
export function parseArgsConfigOf(table: readonly CommandOption<never>[]): NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(
    table.map((option) => [
      option.name,
      {
        type: option.kind === "boolean" ? "boolean" : "string",
        ...(option.kind === "repeatable" ? { multiple: true } : {}),
        ...(option.short !== undefined ? { short: option.short } : {}),
      },
    ]),
  );
}

/** What `parseArgs` read: each given option's text (a list for a repeatable one), or `true` for a flag. */
export type RawOptionValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/**
 * Reads a command's arguments with `parseArgs` (strict, no positionals), without parsing the values yet (so that
 * `--help` can win over every value).
 *
 * @param table - The options.
 * @param argv - The arguments after the command.
 * @param command - The command, for messages (`trustgate drift`).
 * @returns The text of each given option.
 * @throws {@link InvalidArgumentError} for an unknown option, a missing value or a stray argument (as
 *   `translateParseArgsError` words them).
 */
export function readRawOptions(table: readonly CommandOption<never>[], argv: readonly string[], command: string): RawOptionValues {
  try {
    return parseArgs({ args: [...argv], options: parseArgsConfigOf(table), strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw translateParseArgsError(
      error,
      argv,
      table.map((option) => option.name),
      command,
    );
  }
}

/**
 * Parses each given option's text with the option's `parse`, in the table's order.
 *
 * @param table - The options.
 * @param raw - What {@link readRawOptions} read.
 * @param context - What the options' `parse` functions need.
 * @returns The values of the given options.
 * @throws {@link InvalidArgumentError} for the first value an option's `parse` refuses.
 */
export function parseOptionValues<Table extends readonly CommandOption<never>[], Context>(
  table: Table & readonly CommandOption<Context>[],
  raw: RawOptionValues,
  context: Context,
): OptionValues<Table> {
  const values: Record<string, unknown> = {};
  for (const option of table) {
    const given = raw[option.name];
    if (given === undefined) continue;
    if (option.kind === "boolean") values[option.name] = true;
    else if (option.kind === "string") values[option.name] = option.parse(given as string, context);
    else values[option.name] = option.parse(given as string[], context);
  }
  return values as OptionValues<Table>;
}

/**
 * Checks the scope rules of a table against the options given, option by option in the table's order: for each, the
 * option it excludes, then the command's own rule if any, then the option it needs.
 *
 * @param table - The options.
 * @param given - What {@link readRawOptions} read (only which options are present matters).
 * @param ownRule - A command's own rule: the message when the option does not belong, else `undefined`.
 * @throws {@link InvalidArgumentError} (one line) for the first rule broken.
 */
export function checkOptionScope<O extends CommandOption<never>>(
  table: readonly O[],
  given: RawOptionValues,
  ownRule: (option: O) => string | undefined = () => undefined,
): void {
  const has = (name: string) => given[name] !== undefined;
  for (const option of table) {
    if (!has(option.name)) continue;
    const { excludes, needs } = option.scope ?? {};
    if (excludes !== undefined && has(excludes)) {
      throw new InvalidArgumentError(`--${option.name} and --${excludes} exclude each other: give one of them`);
    }
    const own = ownRule(option);
    if (own !== undefined) throw new InvalidArgumentError(own);
    if (needs !== undefined && !has(needs.option)) throw new InvalidArgumentError(needs.message);
  }
}

/**
 * The help lines of one section of a table: each option's label (`-q, --quiet`, `--rpc <url>`) and its
 * description, wrapped at {@link HELP_LINE_WIDTH} and aligned at {@link HELP_DESCRIPTION_COLUMN} (a label too
 * long for the column gets its description on the next line).
 *
 * @param table - The options.
 * @param group - The section.
 * @param describe - The description as shown (default: the option's own); a command may prefix its scope.
 * @returns The lines, each ending with a newline.
 */
export function formatOptionGroup<O extends CommandOption<never>>(
  table: readonly O[],
  group: string,
  describe: (option: O) => string = (option) => option.description,
): string {
  const indent = " ".repeat(HELP_DESCRIPTION_COLUMN);
  let text = "";
  for (const option of table.filter((candidate) => candidate.group === group)) {
    const label = `  ${option.short !== undefined ? `-${option.short}, ` : ""}--${option.name}${option.kind === "boolean" ? "" : ` <${option.arg}>`}`;
    const lines = wrap(describe(option), HELP_LINE_WIDTH - HELP_DESCRIPTION_COLUMN);
    if (label.length < HELP_DESCRIPTION_COLUMN) text += `${label.padEnd(HELP_DESCRIPTION_COLUMN)}${lines[0]}\n`;
    else text += `${label}\n${indent}${lines[0]}\n`;
    for (const line of lines.slice(1)) text += `${indent}${line}\n`;
  }
  return text;
}

/** Greedy word wrap at `width`; a `\n` in the text forces a break. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (line !== "" && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines;
}
