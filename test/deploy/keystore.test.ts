// decryptKeystore against keystores written by another implementation (ethers' encryptKeystoreJson, scrypt) and the
// PBKDF2 test vector of the Web3 Secret Storage definition: the key comes back, a wrong password or a tampered file
// is refused, and no message carries the key.
import { encryptKeystoreJson } from "ethers";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { decryptKeystore } from "../../src/deploy/keystore";

const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;
const address = privateKeyToAccount(KEY).address;

/** A keystore as ethers writes it, with a small scrypt cost so the test stays quick. */
function ethersKeystore(password: string): Promise<string> {
  return encryptKeystoreJson({ address, privateKey: KEY }, password, { scrypt: { N: 1 << 10 } });
}

describe("decryptKeystore", () => {
  it("returns the key of a scrypt keystore written by ethers", async () => {
    expect(await decryptKeystore(await ethersKeystore("correct horse"), "correct horse", "k.json")).toBe(KEY);
  });

  it("returns the key of the Web3 Secret Storage PBKDF2 test vector", async () => {
    const vector = {
      crypto: {
        cipher: "aes-128-ctr",
        cipherparams: { iv: "6087dab2f9fdbbfaddc31a909735c1e6" },
        ciphertext: "5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46",
        kdf: "pbkdf2",
        kdfparams: { c: 262144, dklen: 32, prf: "hmac-sha256", salt: "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd" },
        mac: "517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2",
      },
      id: "3198bc9c-6672-5ab3-d995-4942343ae5b6",
      version: 3,
    };
    expect(await decryptKeystore(JSON.stringify(vector), "testpassword", "vector.json")).toBe(
      "0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d",
    );
  });

  it("refuses a wrong password, naming the file and never the key", async () => {
    const error = await decryptKeystore(await ethersKeystore("correct horse"), "wrong", "k.json").catch((e: unknown) => e);
    expect(String(error)).toContain("k.json: wrong password for the keystore (its MAC does not match)");
    expect(String(error)).not.toContain(KEY.slice(2));
  });

  it("refuses a keystore whose address field is not its key's, and a file that is no keystore", async () => {
    const other = JSON.parse(await ethersKeystore("pw")) as Record<string, unknown>;
    other.address = "0000000000000000000000000000000000000001";
    await expect(decryptKeystore(JSON.stringify(other), "pw", "k.json")).rejects.toThrow(
      "k.json: the keystore's key is not the one of its address field",
    );
    await expect(decryptKeystore('{"version":1}', "pw", "k.json")).rejects.toThrow("k.json is not a Web3 Secret Storage v3 keystore");
  });
});
