/**
 * The command lines of a documented shell block, split as a POSIX shell would split them, closely enough to check
 * each command against the parser of the program it calls (test/docs/shell-blocks.test.ts): continuation lines
 * joined, comments dropped, commands separated at `&&`, `||`, `;`, `|` and `&`, words split at blanks with quotes
 * removed, redirections and `{ … }` groups dropped, a here-document's lines (`<<'EOF'` … `EOF`) skipped as the
 * command's input, leading `NAME=value` assignments set aside, a crontab line's schedule (five fields) dropped. A documented placeholder, `<like this>`, is one word even with blanks inside.
 */

/** One simple command of a block. */
export interface ShellCommand {
  /** The words, quotes removed (`$VAR` kept as written). */
  readonly words: readonly string[];
  /** The `NAME=value` assignments before the command's name. */
  readonly assignments: readonly string[];
  /** The line of the block the command starts on (1-based). */
  readonly line: number;
}

const SEPARATORS = new Set(["&&", "||", ";", "|", "&"]);

/**
 * Splits one (joined) line into words and separators.
 *
 * @param line - A command line without its comment.
 * @returns The tokens: words with their quotes removed, and separators as themselves.
 */
function tokens(line: string): { text: string; separator: boolean }[] {
  const out: { text: string; separator: boolean }[] = [];
  let word = "";
  let inWord = false;
  const flush = () => {
    if (inWord) out.push({ text: word, separator: false });
    word = "";
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated ${c} in: ${line}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[i + 1];
      inWord = true;
      i++;
    } else if (c === "<" && !inWord && /^<[^<>]+>/.test(line.slice(i))) {
      const end = line.indexOf(">", i);
      word += line.slice(i, end + 1);
      inWord = true;
      i = end;
    } else if (c === "<" && inWord && /^<[^<>\s]+>/.test(line.slice(i))) {
      const end = line.indexOf(">", i);
      word += line.slice(i, end + 1);
      i = end;
    } else if (c === "$" && line[i + 1] === "(") {
      let depth = 0;
      let j = i;
      for (; j < line.length; j++) {
        if (line[j] === "(") depth++;
        else if (line[j] === ")" && --depth === 0) break;
      }
      word += line.slice(i, j + 1);
      inWord = true;
      i = j;
    } else if (/\s/.test(c)) {
      flush();
    } else if ("&|;".includes(c)) {
      flush();
      const two = line.slice(i, i + 2);
      const separator = two === "&&" || two === "||" ? two : c;
      out.push({ text: separator, separator: true });
      i += separator.length - 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return out;
}

/** Drops a `#` comment (one that starts a word, outside quotes). */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "\\") i++;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/**
 * The simple commands of a shell block.
 *
 * @param code - The block's text.
 * @returns Each command with its words, its leading assignments and its line.
 */
export function shellCommands(code: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  const lines = code.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let text = withoutComment(lines[i]!);
    while (/\\\s*$/.test(text) && i + 1 < lines.length) text = text.replace(/\\\s*$/, " ") + withoutComment(lines[++i]!);
    const hereDocument = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1/.exec(text);
    if (hereDocument) {
      text = text.replace(hereDocument[0], "");
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== hereDocument[2]) i++;
      i++;
    }
    if (/^\s*(\*|[\d,*/-]+)(\s+[\d,*/-]+){4}\s/.test(text)) text = text.replace(/^\s*(\S+\s+){5}/, "");
    let words: string[] = [];
    const flush = () => {
      const kept = words.filter((word) => word !== "{" && word !== "}");
      const assignments: string[] = [];
      while (kept.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(kept[0]!)) assignments.push(kept.shift()!);
      if (kept.length > 0 || assignments.length > 0) commands.push({ words: kept, assignments, line: start });
      words = [];
    };
    const all = tokens(text);
    for (let k = 0; k < all.length; k++) {
      const token = all[k]!;
      if (token.separator && SEPARATORS.has(token.text)) flush();
      else if (/^\d*>{1,2}/.test(token.text)) {
        if (/^\d*>{1,2}$/.test(token.text)) k++; // the target is the next word
      } else words.push(token.text);
    }
    flush();
  }
  return commands;
}
