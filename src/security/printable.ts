/**
 * Text about to be printed whole — an error message, a stack trace — that may quote a service or name an endpoint:
 * each line goes through the URL redactor ({@link redactUrlsIn}) and the sanitiser ({@link sanitizeText}); the line
 * breaks are kept.
 *
 * @packageDocumentation
 */
import { sanitizeText } from "./outside-text.js";
import { redactUrlsIn } from "./redact-url.js";

/**
 * Makes a multi-line text safe to print (see the module notes).
 *
 * @param text - Any text, such as an error's message or its `util.inspect` form.
 * @returns The text with every URL redacted and no control character but the line breaks.
 */
export function printableText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => sanitizeText(redactUrlsIn(line)))
    .join("\n");
}
