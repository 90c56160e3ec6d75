// Writing a whole state file: through a temporary file renamed over it.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDriftStateAtomically } from "../../../src/drift/state/atomic-write";
import { stateLine } from "../../../src/drift/state/codec";
import { readDriftState } from "../../../src/drift/state/read";
import { ENTRY, file, header } from "./lines";

describe("writing the state file", () => {
  it("writes atomically: the file is the old one or the new one, never a mix", () => {
    const path = file([header(), stateLine.agent(ENTRY)]);
    writeDriftStateAtomically(path, [header(), stateLine.agent({ ...ENTRY, agent: "base:erc8004:5" })]);
    expect([...readDriftState(path)!.entries.keys()]).toEqual(["base:erc8004:5"]);
    expect(() => writeDriftStateAtomically(join(path, "no", "such", "dir"), [header()])).toThrow();
    expect([...readDriftState(path)!.entries.keys()]).toEqual(["base:erc8004:5"]);
  });
});
