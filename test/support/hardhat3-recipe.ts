/**
 * docs/testing.md's Hardhat 3 recipe: the shell block that takes an empty folder to a Hardhat 3 project with the kit,
 * using nothing but the npm registry. `test/package/hardhat3-project.test.ts` runs it line by line; the versions it
 * pins are the Hardhat 3 versions the rest of the suite names (`test/cli/demo.test.ts`).
 */
import { type DocBlock, docBlocks } from "./doc-blocks";

/** The page that holds the recipe. */
export const HARDHAT3_RECIPE_PAGE = "docs/testing.md";

/** The placeholder of the recipe's `npm install` where the kit goes (a tarball, git URL or path). */
export const KIT_PLACEHOLDER = "<tarball, git URL or path of this repository>";

/**
 * The recipe's block: the shell block of {@link HARDHAT3_RECIPE_PAGE} whose marker names the test that runs it.
 *
 * @returns The block.
 * @throws Error when there is not exactly one such block.
 */
export function hardhat3RecipeBlock(): DocBlock {
  const blocks = docBlocks(HARDHAT3_RECIPE_PAGE).filter(
    (block) => block.lang === "sh" && block.skip?.includes("test/package/hardhat3-project.test.ts") === true,
  );
  if (blocks.length !== 1) throw new Error(`${HARDHAT3_RECIPE_PAGE}: ${blocks.length} Hardhat 3 recipe blocks, expected 1`);
  return blocks[0]!;
}

/**
 * The recipe's commands, one per line: continuation lines joined, comments and blank lines dropped.
 *
 * @returns The commands in order.
 */
export function hardhat3RecipeCommands(): string[] {
  const commands: string[] = [];
  let pending = "";
  for (const line of hardhat3RecipeBlock().code.split("\n")) {
    const text = line.replace(/\s+#.*$/, "").trimEnd();
    if (text.endsWith("\\")) {
      pending += `${text.slice(0, -1).trim()} `;
      continue;
    }
    const command = `${pending}${text.trim()}`.trim();
    pending = "";
    if (command !== "" && !command.startsWith("#")) commands.push(command);
  }
  return commands;
}

/**
 * The packages the recipe installs, with the exact versions it pins.
 *
 * @returns Package name → version.
 */
export function hardhat3RecipeVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const command of hardhat3RecipeCommands().filter((c) => c.startsWith("npm install "))) {
    for (const token of command.split(/\s+/)) {
      const pinned = /^(@?[^@\s]+)@(\d+\.\d+\.\d+)$/.exec(token);
      if (pinned) versions[pinned[1]!] = pinned[2]!;
    }
  }
  return versions;
}

/**
 * The folder the recipe creates and enters (`mkdir <folder> && cd <folder>`).
 *
 * @returns Its name.
 * @throws Error when the recipe does not start by making one.
 */
export function hardhat3RecipeFolder(): string {
  const made = /^mkdir (\S+) && cd \1$/.exec(hardhat3RecipeCommands()[0] ?? "");
  if (!made) throw new Error(`${HARDHAT3_RECIPE_PAGE}: the Hardhat 3 recipe does not start with "mkdir <folder> && cd <folder>"`);
  return made[1]!;
}
