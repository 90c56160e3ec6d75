import hre from "hardhat";
import { readFileSync } from "node:fs";
import { AttestationParserHarness__factory } from "../typechain-types";
import { v2Signed } from "../test/support/onchain-attestations";
async function main() {
  const [d] = await hre.ethers.getSigners();
  const h = await new AttestationParserHarness__factory(d!).deploy();
  const text = JSON.stringify({ ...v2Signed(1776161533), badges: ["original_owner", "established_wallet"] });
  const data = h.interface.encodeFunctionData("parse", [Buffer.from(text)]);
  const trace: any = await hre.network.provider.send("debug_traceCall", [{ to: await h.getAddress(), data }, "latest", { disableStorage: true, disableMemory: true, disableStack: true }]);
  const fqn = "contracts/test/AttestationParserHarness.sol:AttestationParserHarness";
  const bi = (await hre.artifacts.getBuildInfo(fqn))!;
  const out: any = bi.output.contracts["contracts/test/AttestationParserHarness.sol"]!["AttestationParserHarness"]!;
  const code = Buffer.from(out.evm.deployedBytecode.object, "hex");
  const map = out.evm.deployedBytecode.sourceMap.split(";");
  const pcToIdx = new Map<number, number>();
  for (let pc = 0, i = 0; pc < code.length; i++) { pcToIdx.set(pc, i); const op = code[pc]!; pc += op >= 0x60 && op <= 0x7f ? op - 0x5e : 1; }
  let s = 0, l = 0, f = 0; const entries: Array<[number, number, number]> = [];
  for (const e of map) { const parts = e.split(":"); if (parts[0]) s = +parts[0]; if (parts[1]) l = +parts[1]; if (parts[2]) f = +parts[2]; entries.push([s, l, f]); }
  const sources = Object.entries(bi.output.sources).reduce((a, [name, v]: any) => { a[v.id] = name; return a; }, {} as Record<number, string>);
  const lib = "contracts/attestation/TrustAttestationLib.sol";
  const libText = readFileSync("/work/wt-attested/" + lib, "utf8");
  const lineOf = (off: number) => libText.slice(0, off).split("\n").length;
  // attribute to yul function by enclosing "function name(" line
  const lines = libText.split("\n");
  const fnOf = (line: number) => { for (let i = line - 1; i >= 0; i--) { const m = /^\s{12}function (\w+)\(/.exec(lines[i]!); if (m) return m[1]; if (/^\s{12}let start := add\(json/.test(lines[i]!)) return "main"; } return "?"; };
  const byFn: Record<string, number> = {}; let total = 0;
  for (const st of trace.structLogs) {
    const [so, , fi] = entries[pcToIdx.get(st.pc)!] ?? [0, 0, -1];
    const key = sources[fi] === lib ? fnOf(lineOf(so)) : (sources[fi] ?? "gen");
    byFn[key!] = (byFn[key!] ?? 0) + st.gasCost; total += st.gasCost;
  }
  console.log(text.length, "bytes; total", total);
  console.log(Object.entries(byFn).sort((a, b) => b[1] - a[1]).map(([k, g]) => `${g}\t${k}`).join("\n"));
}
main().catch((e) => { console.error(e); process.exit(1); });
