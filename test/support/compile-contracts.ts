import { execFileSync } from "node:child_process";

/** Compiles the contracts once per test run, in a child process so that this process stays clean. */
export default function compileContracts(): void {
  execFileSync(process.execPath, [require.resolve("hardhat/internal/cli/cli"), "compile", "--quiet"], {
    stdio: "inherit",
  });
}
