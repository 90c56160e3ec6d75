/**
 * How `trustgate refresh` connects a run that sends: placeholder until the sender exists (see `src/refresh/send.ts`).
 *
 * @packageDocumentation
 */
import { ConfigurationError } from "../errors.js";
import type { SendRefreshFunction } from "./refresh-command.js";

/** Connects to the chain and the service named on the command line, then sends the plan. */
export const sendFromArgs: SendRefreshFunction = () => {
  throw new ConfigurationError("sending is not built yet: give --dry-run");
};
