/**
 * The tables of a manual page read back for the tests that compare them with the code: the rows of a Markdown table
 * under a heading, and the flags an option table declares, so that a page's flag table is checked against the parser
 * the same way for every command.
 */

/**
 * The rows of the first table under `heading` whose header line starts with `header`, each split into its cells.
 *
 * @param page - The Markdown page.
 * @param heading - The section's heading line (`## Flags`); the section ends at the next `## ` heading.
 * @param header - The start of the table's header line (`| flag | meaning |`).
 * @returns The rows after the header and its rule, each cell trimmed; an escaped pipe (`\|`) stays in its cell.
 * @throws When the page has no such heading or table.
 */
export function tableRows(page: string, heading: string, header: string): string[][] {
  const start = page.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`the page has no heading ${JSON.stringify(heading)}`);
  const end = page.indexOf("\n## ", start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  const at = section.indexOf(header);
  if (at < 0) throw new Error(`${JSON.stringify(heading)} has no table starting ${JSON.stringify(header)}`);
  const rows: string[][] = [];
  for (const row of section.slice(at).split("\n").slice(2)) {
    if (!row.startsWith("|")) break;
    rows.push(
      row
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/**
 * The flags a flag table's first column names (`--rpc <url>`, `-h`, `--help`), in order.
 *
 * @param page - The Markdown page.
 * @param heading - The flag table's section heading (default `## Flags`).
 * @returns The flags.
 */
export function documentedFlags(page: string, heading = "## Flags"): string[] {
  return tableRows(page, heading, "| flag | meaning |").flatMap((cells) =>
    [...cells[0]!.matchAll(/`(-{1,2}[A-Za-z][\w-]*)/g)].map((match) => match[1]!),
  );
}

/**
 * The flags of an option table, long and short.
 *
 * @param options - The command's options.
 * @returns `--name` for each, and `-x` for each short form.
 */
export function parserFlags(options: readonly { readonly name: string; readonly short?: string }[]): string[] {
  return options.flatMap((option) => [`--${option.name}`, ...(option.short ? [`-${option.short}`] : [])]);
}
