/**
 * Asks for a password on the terminal without echoing it: the prompt on stderr, the characters read from stdin in raw
 * mode, Enter ends it, Ctrl-C aborts. Only on a terminal: without one, the password must come from the environment.
 *
 * @packageDocumentation
 */
import { ConfigurationError } from "../errors.js";

/**
 * Reads a password typed on the terminal.
 *
 * @param prompt - What to ask (written to stderr).
 * @param missing - The error's message when stdin is not a terminal.
 * @returns The password.
 * @throws {@link ConfigurationError} when stdin is not a terminal, or on Ctrl-C.
 */
export function promptPassword(prompt: string, missing: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return Promise.reject(new ConfigurationError(missing));
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let password = "";
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(password);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString("utf8")) {
        if (char === "\r" || char === "\n") return done();
        if (char === "\u0003") return done(new ConfigurationError("Password prompt interrupted"));
        if (char === "\u007f" || char === "\b") password = password.slice(0, -1);
        else password += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}
