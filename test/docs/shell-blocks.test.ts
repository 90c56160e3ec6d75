/**
 * Every shell block of the documents is checked, whether a test runs it or not: each command line is split as the
 * shell splits it (test/support/shell-commands.ts) and handed to the parser of the program it calls, so that a
 * misspelt flag, a missing value or a script that does not exist fails here.
 *
 * - `trustgate drift …` / `trustgate doctor …` / `trustgate accept …` / `trustgate refresh …` / `trustgate watch …` (by
 *   `npx`, or through `npm start`, whose script runs the CLI): the CLI's own `parseDriftArgs` / `parseDoctorArgs` /
 *   `parseAcceptArgs` / `parseRefreshArgs` / `parseWatchArgs`, the functions `trustgate` runs (`watch` with its
 *   webhook's key in the environment, as a documented `export TRUSTGATE_WEBHOOK_SECRET=…` sets it); a command line with a placeholder (`<url>`, `[options]`) is a synopsis: each flag it names must be one of
 *   the command's options.
 * - `npm run <script>`, `npm start`, `npm test`: the script must exist in package.json; the arguments after `--` of
 *   `deploy` and `keys` go through the scripts' own option tables (scripts/lib/script-options.ts), and a script whose
 *   arguments nothing here can parse may not be given any.
 * - `npx vitest run <file>` and `npx tsx <script>`: the files must exist.
 * - Other programs (npm's own commands, Hardhat, forge, git, the shell's builtins) are listed in {@link EXTERNAL}
 *   with why they are not parsed here; any other command fails.
 *
 * Variables (`$BASE_RPC_URL`) take loopback example values from {@link VARIABLES}, and `0xYour…` stands for an
 * address, so that a full command line parses; a variable without a value here fails, naming it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { DEPLOY_OPTIONS, KEYS_OPTIONS } from "../../scripts/lib/script-options";
import { ACCEPT_OPTIONS, parseAcceptArgs } from "../../src/cli/accept-args";
import { parseDoctorArgs } from "../../src/cli/doctor-args";
import { DOCTOR_OPTIONS } from "../../src/cli/doctor-options";
import { parseDriftArgs } from "../../src/cli/drift-args";
import { DRIFT_OPTIONS } from "../../src/cli/drift-options";
import { parseRefreshArgs } from "../../src/cli/refresh-args";
import { REFRESH_OPTIONS } from "../../src/cli/refresh-options";
import { parseWatchArgs } from "../../src/cli/watch-args";
import { WATCH_OPTIONS } from "../../src/cli/watch-options";
import { type DocBlock, docBlocks, DOCUMENTS } from "../support/doc-blocks";
import { type ShellCommand, shellCommands } from "../support/shell-commands";

const ROOT = resolve(__dirname, "../..");
const SHELL_LANGUAGES = new Set(["sh", "bash", "shell", "console"]);
const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** Example values of the variables documented command lines use: loopback endpoints, a block, a date. */
const VARIABLES: Readonly<Record<string, string>> = {
  BASE_RPC_URL: "http://127.0.0.1:8545",
  RPC_URL: "http://127.0.0.1:8545",
  LOCALHOST_RPC_URL: "http://127.0.0.1:8545",
  TRUSTGATE_API_URL: "http://127.0.0.1:8080",
  ORACLE: "0x1111111111111111111111111111111111111111",
  JWKS: "http://127.0.0.1:8787/.well-known/jwks.json",
  FROM_BLOCK: "1",
  HOME: "/home/operator",
  CODE: "0",
  d: "2026-01-01",
  c: "0",
  "?": "0",
};

/** The address a documented `0xYourGate`, `0xYourOracle`… stands for. */
const EXAMPLE_ADDRESS = "0x2222222222222222222222222222222222222222";

/** Programs whose command lines are not parsed here, and why. */
const EXTERNAL: Readonly<Record<string, string>> = {
  forge: "Foundry's own command line (the documented Foundry projects run in test/docs/readme-blocks.test.ts)",
  $forge: "forge, through the variable the block sets to the npm route's binary (Foundry's own command line)",
  git: "git's own command line",
  jq: "a JSON filter over the report",
  mail: "the system's mailer",
  cat: "a shell utility",
  echo: "a shell builtin",
  export: "a shell builtin",
  cd: "a shell builtin",
  "[": "a shell builtin",
  mkdir: "a shell utility",
  cp: "a shell utility",
  mv: "a shell utility",
  rm: "a shell utility",
  ls: "a shell utility",
  touch: "a shell utility",
  printf: "a shell builtin",
  tee: "a shell utility",
  node: "Node's own command line",
  "npm ci": "npm's own command",
  "npm pkg": "npm's own command",
  "npm view": "npm's own command",
  "npm install": "npm's own command (what is installed is the packaging tests' matter)",
  "npm init": "npm's own command",
  "npx hardhat": "Hardhat's own command line",
  docker: "Docker's own command line (no docker here; docs/watch.md's image is checked by test/docs/watch-page.test.ts)",
};

/** Problems of one command: each a sentence naming what is wrong. */
type Problems = string[];

function substitute(word: string, problems: Problems): string {
  const replaced = word.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*|\?)\}?/g, (whole, name: string) => {
    const value = VARIABLES[name];
    if (value === undefined) problems.push(`variable ${whole} has no example value in VARIABLES`);
    return value ?? "";
  });
  return /^0xYour[A-Za-z]+$/.test(replaced) ? EXAMPLE_ADDRESS : replaced;
}

/** Whether a command line is a synopsis: a `<placeholder>`, an `[optional part]`, `…` or `...`. */
function isSynopsis(words: readonly string[]): boolean {
  return words.some((word) => /<[^>]+>/.test(word) || /^\[|\]$/.test(word) || word === "..." || /…/.test(word));
}

/** The flags of a synopsis that are not options of the command. */
function unknownFlags(words: readonly string[], longNames: readonly string[], shortNames: readonly string[]): string[] {
  return words
    .map((word) => word.replace(/^\[/, "").replace(/\]$/, ""))
    .filter((word) => /^--?[A-Za-z]/.test(word))
    .filter((word) => {
      if (word.startsWith("--")) return !longNames.includes(word.slice(2).split("=")[0]!);
      return !shortNames.includes(word.slice(1, 2));
    });
}

function tableNames(table: readonly { readonly name: string; readonly short?: string }[]): [string[], string[]] {
  return [table.map((o) => o.name), table.flatMap((o) => (o.short ? [o.short] : []))];
}

function parseArgsNames(options: Readonly<Record<string, { readonly short?: string }>>): [string[], string[]] {
  return [Object.keys(options), Object.values(options).flatMap((o) => (o.short ? [o.short] : []))];
}

function checkTrustgate(args: readonly string[], problems: Problems): void {
  const [command, ...rest] = args;
  if (command === "--help" || command === "--version" || command === "help") return;
  const parsers = {
    drift: { names: tableNames(DRIFT_OPTIONS), parse: (argv: string[]) => parseDriftArgs(argv, { env: {} }) },
    doctor: { names: tableNames(DOCTOR_OPTIONS), parse: (argv: string[]) => parseDoctorArgs(argv, { env: {} }) },
    // A fixed clock: the documented --until stays in the future whenever the test runs.
    accept: { names: tableNames(ACCEPT_OPTIONS), parse: (argv: string[]) => parseAcceptArgs(argv, () => new Date("2026-01-01T00:00:00Z")) },
    refresh: { names: tableNames(REFRESH_OPTIONS), parse: (argv: string[]) => parseRefreshArgs(argv, { env: {} }) },
    watch: {
      names: tableNames(WATCH_OPTIONS),
      parse: (argv: string[]) => parseWatchArgs(argv, { env: { TRUSTGATE_WEBHOOK_SECRET: "example-key" } }),
    },
  };
  if (command !== "drift" && command !== "doctor" && command !== "accept" && command !== "refresh" && command !== "watch") {
    problems.push(`trustgate has no command ${JSON.stringify(command)}`);
    return;
  }
  checkWithParser(`trustgate ${command}`, rest, parsers[command].names, parsers[command].parse, problems);
}

function checkWithParser(
  what: string,
  args: readonly string[],
  [longNames, shortNames]: [string[], string[]],
  parse: (argv: string[]) => unknown,
  problems: Problems,
): void {
  if (isSynopsis(args)) {
    for (const flag of unknownFlags(args, longNames, shortNames)) problems.push(`${what}: ${flag} is not one of its options`);
    return;
  }
  const argv = args.map((word) => substitute(word, problems));
  try {
    parse(argv);
  } catch (error) {
    problems.push(`${what} ${argv.join(" ")}: ${(error as Error).message.split("\n")[0]}`);
  }
}

function checkScriptArgs(script: string, args: readonly string[], problems: Problems): void {
  const command = SCRIPTS[script]!;
  const cli = /src\/cli\/bin\.ts\s+(.*)$/.exec(command);
  if (cli) return checkTrustgate([...cli[1]!.split(/\s+/), ...args], problems);
  const tsx = /^tsx (scripts\/\S+\.ts)$/.exec(command);
  if (tsx) return checkScript(tsx[1]!, args, problems);
  if (args.length > 0) problems.push(`npm run ${script}: nothing here parses its arguments (${args.join(" ")})`);
}

function checkScript(file: string, args: readonly string[], problems: Problems): void {
  if (!existsSync(join(ROOT, file))) return void problems.push(`${file} does not exist`);
  const tables: Record<string, Readonly<Record<string, { readonly type: "string" | "boolean"; readonly short?: string }>>> = {
    "scripts/deploy.ts": DEPLOY_OPTIONS,
    "scripts/keys.ts": KEYS_OPTIONS,
  };
  const options = tables[file];
  if (!options) {
    if (args.length > 0) problems.push(`${file}: nothing here parses its arguments (${args.join(" ")})`);
    return;
  }
  checkWithParser(
    file,
    args,
    parseArgsNames(options),
    (argv) => parseArgs({ args: argv, options, strict: true, allowPositionals: false }),
    problems,
  );
}

function checkNpm(words: readonly string[], problems: Problems): void {
  const [, sub] = words;
  if (sub === undefined) return void problems.push("npm without a command");
  if (`npm ${sub}` in EXTERNAL) return;
  const split = words.indexOf("--");
  const args = split < 0 ? [] : words.slice(split + 1);
  const script = sub === "run" || sub === "run-script" ? words.slice(2).find((word) => !word.startsWith("-")) : sub;
  if (script === undefined || !(script in SCRIPTS)) return void problems.push(`package.json has no script ${JSON.stringify(script)}`);
  checkScriptArgs(script, args, problems);
}

function checkNpx(words: readonly string[], problems: Problems): void {
  const [, program, ...args] = words;
  if (program === "trustgate") return checkTrustgate(args, problems);
  if (`npx ${program}` in EXTERNAL) return;
  if (program === "vitest") {
    for (const file of args.filter((arg) => /\.test\.ts$/.test(arg)))
      if (!existsSync(join(ROOT, file))) problems.push(`${file} does not exist`);
    return;
  }
  if (program === "tsx" && args[0]) return checkScript(args[0], args.slice(1), problems);
  problems.push(`npx ${program}: not a command this test knows`);
}

/**
 * The problems of one command of a block.
 *
 * @param command - The command.
 * @returns What is wrong with it; empty when it parses.
 */
function checkCommand(command: ShellCommand): Problems {
  const problems: Problems = [];
  for (const assignment of command.assignments) substitute(assignment.slice(assignment.indexOf("=") + 1), problems);
  const [program] = command.words;
  if (program === undefined) return problems;
  const name = program.split("/").pop()!;
  if (program === "npm") checkNpm(command.words, problems);
  else if (program === "npx") checkNpx(command.words, problems);
  else if (program === "trustgate") checkTrustgate(command.words.slice(1), problems);
  else if (!(name in EXTERNAL)) problems.push(`${program}: not a command this test knows (add it to EXTERNAL with a reason, or parse it)`);
  return problems;
}

/** Every problem of a block, each naming the document and line. */
function blockProblems(block: Pick<DocBlock, "file" | "line" | "code">): string[] {
  return shellCommands(block.code).flatMap((command) =>
    checkCommand(command).map((problem) => `${block.file}:${block.line + command.line}: ${problem}`),
  );
}

const BLOCKS = DOCUMENTS.flatMap(docBlocks).filter((b) => SHELL_LANGUAGES.has(b.lang));

describe("the documents' shell blocks", () => {
  it("are found", () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(20);
  });

  it.each(BLOCKS.map((b) => [`${b.file}:${b.line}`, b] as const))("%s parses with the programs' own parsers", (_name, block) => {
    expect(blockProblems(block)).toEqual([]);
  });

  it("name only scripts package.json has, in their prose too (`npm run <script>` in inline code)", () => {
    const named = DOCUMENTS.flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/`[^`\n]*?npm run ([a-z][\w:-]*)[^`\n]*`/g)].map((match) => ({
        file,
        script: match[1]!,
      })),
    );
    expect(named.length).toBeGreaterThanOrEqual(20);
    expect(named.filter(({ script }) => !(script in SCRIPTS)).map(({ file, script }) => `${file}: npm run ${script}`)).toEqual([]);
  });

  it("would fail on a misspelt flag, a bad value, an unknown script or command, and a variable without a value", () => {
    const drift = BLOCKS.find((b) => b.file === "docs/drift.md" && b.code.includes("--full"))!;
    expect(drift, "docs/drift.md's block with --full").toBeDefined();
    expect(blockProblems({ ...drift, code: drift.code.replace("--full", "--ful") }).join("\n")).toMatch(/--ful/);
    const at = { file: "x.md", line: 1 };
    expect(blockProblems({ ...at, code: 'npx trustgate drift --rpc "$BASE_RPC_URL" --api https://rnwy.com --agents base:x' })).toHaveLength(
      1,
    );
    expect(blockProblems({ ...at, code: "npx trustgate drift --rpc <url> --api <url> --agentz <list>" }).join("\n")).toMatch(/--agentz/);
    expect(blockProblems({ ...at, code: "npm run keys -- --network base --jwks https://rnwy.com/jwks.json --thumbprnt a=b" })).toHaveLength(
      1,
    );
    expect(blockProblems({ ...at, code: "npm run test:forrge" }).join("\n")).toMatch(/no script "test:forrge"/);
    expect(blockProblems({ ...at, code: "curl http://127.0.0.1:8787" }).join("\n")).toMatch(/curl: not a command/);
    expect(blockProblems({ ...at, code: 'npx trustgate doctor --api "$NOWHERE"' }).join("\n")).toMatch(/\$NOWHERE/);
    const hereDocument =
      "cat > hardhat.config.ts <<'EOF'\nexport default { solidity: \"0.8.28\" };\nEOF\nnpx trustgate drift --rpc http://127.0.0.1:8545 --api http://127.0.0.1:8787 --agents base:1 --fulll";
    expect(blockProblems({ ...at, code: hereDocument }).join("\n")).toMatch(/--fulll/);
    expect(blockProblems({ ...at, code: hereDocument })).toHaveLength(1);
  });
});
