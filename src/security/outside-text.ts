/**
 * The sanitiser of text that came from outside the process (a service's error message, a reason that quotes it,
 * a field of a response) before it reaches a terminal or a Markdown document:
 *
 * - {@link sanitizeText}: control characters (C0 including ESC, DEL, C1) are removed, so that no ANSI escape
 *   sequence can move the cursor, recolour, retitle or hide text; line breaks and tabs become spaces (one line per
 *   value); and every invisible character that can make two texts look alike or reorder what is shown (Unicode's
 *   format characters, category Cf: the bidirectional controls, zero-width spaces and joiners, the byte-order mark,
 *   the soft hyphen…, and the Hangul fillers) is shown as an escape, `\u{200B}`, so that the reader sees it is there;
 * - {@link markdownText}: the same, then every Markdown metacharacter is backslash-escaped and `<`/`>` written as
 *   entities, so that `![img](https://…)` renders as that text, not as an image that a posted report would load,
 *   and no cell can end its table row.
 *
 * @packageDocumentation
 */

// ESC and every other C0 control, DEL, C1 (0x80–0x9f, including the single-byte CSI 0x9b), and the line/paragraph
// separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// What renders as nothing (or as a blank) yet makes a text differ: every format character (Cf: bidi embeddings,
// overrides, isolates and marks, U+200B–U+200D, U+2060–U+2064, U+FEFF, U+00AD, U+180E, tags…) and the Hangul fillers
// (U+115F, U+1160, U+3164, U+FFA0), which are letters that draw nothing.
const INVISIBLE = /[\p{Cf}\u115f\u1160\u3164\uffa0]/gu;

/**
 * How an invisible character is shown.
 *
 * @param character - One character.
 * @returns `\u{XXXX}`, its code point in upper-case hexadecimal.
 */
function visibleEscape(character: string): string {
  return `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`;
}
// An ANSI escape sequence as a whole (CSI … final byte, OSC … BEL/ST, or ESC + one character), so that its
// parameters do not stay behind as text once ESC is gone.
const ANSI_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-Z\\-_]/g;

/**
 * Makes outside text safe for a terminal (see the module notes): ANSI sequences and other control characters
 * removed, line breaks and tabs turned into spaces, invisible characters shown as `\u{XXXX}` escapes.
 *
 * @param text - Text that came from outside.
 * @returns The text, printable and on one line.
 */
export function sanitizeText(text: string): string {
  return text
    .replace(ANSI_SEQUENCE, "")
    .replace(/[\t\n\v\f\r]/g, " ")
    .replace(CONTROL, "")
    .replace(INVISIBLE, visibleEscape);
}

// What CommonMark or GitHub gives a meaning to inside a line: escapes, code spans, emphasis, strikethrough, table
// cell ends, and the brackets of links, images and footnotes (without a `[…]` there is no `![…](…)` nor `[…](…)`, so
// parentheses and `!` need nothing); HTML, autolinks and entities are written as entities below.
const MARKDOWN_META = /[\\`*_~|[\]]/g;

/**
 * Makes outside text safe inside a Markdown paragraph or table cell (see the module notes): sanitised, whitespace
 * collapsed, every metacharacter backslash-escaped, `<`, `>` and `&` written as entities.
 *
 * @param text - Text that came from outside.
 * @returns Markdown that renders as the text itself.
 */
export function markdownText(text: string): string {
  return sanitizeText(text)
    .replace(/\s+/g, " ")
    .trim()
    .replace(MARKDOWN_META, "\\$&")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}
