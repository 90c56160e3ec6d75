/**
 * Keeps a command-line server running until SIGINT or SIGTERM, then closes it and exits (0, or 1 when
 * closing fails).
 *
 * @param close - Stops whatever the script started.
 * @param log - Where to say that it is stopping (default `console.log`).
 */
export function stopOnSignal(close: () => Promise<void>, log: (line: string) => void = console.log): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log(`\n${signal}: stopping`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}
