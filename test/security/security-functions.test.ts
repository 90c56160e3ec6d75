/**
 * The functions of `src/security/` one by one: the exact rules docs/security.md states.
 */
import { describe, expect, test } from "vitest";
import {
  HIDDEN_SEGMENT,
  markdownText,
  parseEndpointUrl,
  printableText,
  readBoundedText,
  REDACTED,
  redactUrl,
  redactUrlsIn,
  sanitizeText,
  scrubSecrets,
  scrubSecretsDeep,
} from "../../src/security/index.js";
import { InvalidArgumentError } from "../../src/errors.js";

/** A response whose body arrives in the given chunks, with an optional Content-Length. */
function responseOf(chunks: Uint8Array[], contentLength?: string): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(stream, { headers: contentLength === undefined ? {} : { "content-length": contentLength } });
}

describe("the README's Security examples", () => {
  test("hold, one by one", () => {
    expect(redactUrl("https://base-mainnet.g.alchemy.com/v2/Zx81kQpLm3RtYv7Wn2Bc")).toBe(
      `https://base-mainnet.g.alchemy.com/v2/${HIDDEN_SEGMENT}`,
    );
    expect(redactUrl("https://rnwy.com/api/trust-check?id=1&chain=base")).toBe("https://rnwy.com/api/trust-check?id=1&chain=base");
    expect(scrubSecrets("invalid key tgk_123456", ["tgk_123456"])).toBe("invalid key ***");
    expect(sanitizeText("\u001b[31mREVOKED\u001b[0m\r\nnext")).toBe("REVOKED  next");
    expect(sanitizeText("ag\u200bent")).toBe("ag\\u{200B}ent");
    expect(markdownText("![img](https://attacker.example/p.png)")).toBe("!\\[img\\](https://attacker.example/p.png)");
  });
});

describe("readBoundedText", () => {
  const read = (response: Response, maxBytes: number) => readBoundedText(response, { maxBytes, method: "GET", url: "http://127.0.0.1/x" });

  test("reads a body of exactly the limit, and one byte more is refused", async () => {
    await expect(read(responseOf([new Uint8Array(10).fill(0x61)]), 10)).resolves.toBe("a".repeat(10));
    await expect(read(responseOf([new Uint8Array(6).fill(0x61), new Uint8Array(5).fill(0x61)]), 10)).rejects.toMatchObject({
      code: "RESPONSE_TOO_LARGE",
      limitBytes: 10,
      declaredBytes: undefined,
    });
  });

  test("refuses from the Content-Length before reading, and ignores a malformed one", async () => {
    await expect(read(responseOf([new Uint8Array(1)], "11"), 10)).rejects.toMatchObject({ declaredBytes: 11 });
    await expect(read(responseOf([new TextEncoder().encode("ok")], "not a number"), 10)).resolves.toBe("ok");
  });

  test("decodes UTF-8 split across chunks, and an empty body is empty", async () => {
    const bytes = new TextEncoder().encode("é€😀");
    await expect(read(responseOf([bytes.slice(0, 1), bytes.slice(1, 4), bytes.slice(4)]), 100)).resolves.toBe("é€😀");
    await expect(read(new Response(null), 10)).resolves.toBe("");
  });
});

describe("scrubSecrets", () => {
  test("replaces every occurrence, longest secret first, ignoring empty ones", () => {
    expect(scrubSecrets("k=abc123 and abc123 and abc", ["abc", "abc123", "", undefined])).toBe(
      `k=${REDACTED} and ${REDACTED} and ${REDACTED}`,
    );
  });

  test("scrubs every string of a parsed value, keys included, and leaves other values", () => {
    expect(scrubSecretsDeep({ s3cr3t: ["x s3cr3t", 1, null, true], n: 2 }, ["s3cr3t"])).toEqual({
      [REDACTED]: [`x ${REDACTED}`, 1, null, true],
      n: 2,
    });
  });
});

describe("redactUrl", () => {
  test.each([
    ["https://base-mainnet.g.alchemy.com/v2/Zx81kQpLm3RtYv7Wn2Bc", `https://base-mainnet.g.alchemy.com/v2/${HIDDEN_SEGMENT}`],
    ["https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef", `https://mainnet.infura.io/v3/${HIDDEN_SEGMENT}`],
    ["https://x.quiknode.pro/abc123def456/", `https://x.quiknode.pro/${HIDDEN_SEGMENT}/`],
    ["https://user:pw@rnwy.com/.well-known/jwks.json#frag", "https://rnwy.com/.well-known/jwks.json"],
    ["https://rnwy.com/api/trust-check?id=1&chain=base", "https://rnwy.com/api/trust-check?id=1&chain=base"],
    [
      "https://rpc.example/?apikey=K1&x=2&access_token=T&chain=base",
      `https://rpc.example/?apikey=${REDACTED}&x=${REDACTED}&access_token=${REDACTED}&chain=base`,
    ],
    ["http://127.0.0.1:8545", "http://127.0.0.1:8545"],
    ["http://127.0.0.1:8545/", "http://127.0.0.1:8545"],
    ["https://a.example/K1/K2/rpc", `https://a.example/${HIDDEN_SEGMENT}/rpc`],
    ["did:web:rnwy.com", `did:${HIDDEN_SEGMENT}`],
    ["https://h.example/v1/abcdefghijklmnopqrstuvwxyzabcdef", `https://h.example/v1/${HIDDEN_SEGMENT}`],
    ["https://h.example/api/reviewer-analysis/.well-known/jwks.json", "https://h.example/api/reviewer-analysis/.well-known/jwks.json"],
    ["not a url", "<invalid URL>"],
  ])("%s → %s", (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  test("redactUrlsIn redacts every URL inside a text, trailing punctuation kept", () => {
    expect(redactUrlsIn("URL: https://g.alchemy.com/v2/Zx81kQpLm3. Then (http://u:p@127.0.0.1:9/x1y2z3), done")).toBe(
      `URL: https://g.alchemy.com/v2/${HIDDEN_SEGMENT}. Then (http://127.0.0.1:9/${HIDDEN_SEGMENT}), done`,
    );
  });
});

describe("parseEndpointUrl", () => {
  const http = { name: "--api", protocols: ["http:", "https:"] };
  test("accepts a key in the path and returns the URL trimmed", () => {
    expect(parseEndpointUrl(" https://g.alchemy.com/v2/Zx81kQpLm3 ", http)).toBe("https://g.alchemy.com/v2/Zx81kQpLm3");
  });
  test.each([
    ["https://u:Zx81kQ@h.example", "it contains credentials"],
    ["https://h.example/?k=Zx81kQ", "it has a query"],
    ["https://h.example/?", "it has a query"],
    ["https://h.example/#Zx81kQ", "it has a fragment"],
    ["ftp://h.example", "expected http or https"],
    ["h.example/Zx81kQ", "not a URL"],
  ])("refuses %s: %s, quoting none of the secret", (url, reason) => {
    let error: unknown;
    try {
      parseEndpointUrl(url, http);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toContain(reason);
    expect((error as Error).message).not.toContain("Zx81kQ");
  });
});

describe("sanitizeText and markdownText", () => {
  test("remove escape sequences (CSI, OSC, single-byte CSI) and other controls, show a bidi override; line breaks become spaces", () => {
    expect(sanitizeText("a\u001b[1;31mb\u001b[0m\u001b]0;title\u0007c\u009b2Jd\u202eе\u0000\u007f\r\nf\tg")).toBe("abcd\\u{202E}е  f g");
  });

  test("show every invisible character as an escape, so that a lookalike name does not pass for the name", () => {
    // A byte-order mark, a zero-width space, a soft hyphen: each would make "agent" and a name that prints as "agent" differ.
    expect(sanitizeText("\ufeffagent")).toBe("\\u{FEFF}agent");
    expect(sanitizeText("ag\u200bent")).toBe("ag\\u{200B}ent");
    expect(sanitizeText("ag\u00adent")).toBe("ag\\u{AD}ent");
    // The rest of Unicode's format characters (Cf), the bidi marks and isolates among them, and the Hangul fillers.
    for (const invisible of [
      "\u200c",
      "\u200d",
      "\u200e",
      "\u2060",
      "\u2066",
      "\u061c",
      "\u180e",
      "\u{e0041}",
      "\u115f",
      "\u1160",
      "\u3164",
      "\uffa0",
    ]) {
      const shown = sanitizeText(`a${invisible}b`);
      expect(shown).toBe(`a\\u{${invisible.codePointAt(0)!.toString(16).toUpperCase()}}b`);
    }
    // Visible text, accents and scripts other than Latin included, is left as it is.
    expect(sanitizeText("Agent Ünïcödé 代理 агент ★")).toBe("Agent Ünïcödé 代理 агент ★");
    expect(markdownText("ag\u200bent")).toBe("ag\\\\u{200B}ent");
  });

  test("printableText keeps line breaks, redacts URLs and strips controls on each line", () => {
    expect(printableText("x https://h.example/v2/K3y9\n\u001b[31my")).toBe(`x https://h.example/v2/${HIDDEN_SEGMENT}\ny`);
  });

  test("markdownText leaves no image, link, HTML, emphasis, code span or cell break", () => {
    expect(markdownText("![i](https://a.example/p.png) [l](u) <img src=x> **b** _i_ ~~s~~ `c` a|b \\ &amp;")).toBe(
      "!\\[i\\](https://a.example/p.png) \\[l\\](u) &lt;img src=x&gt; \\*\\*b\\*\\* \\_i\\_ \\~\\~s\\~\\~ \\`c\\` a\\|b \\\\ &amp;amp;",
    );
  });
});

describe("the examples docs/security.md gives", () => {
  test("each rule does to its example what the page's table says", () => {
    expect(redactUrl("https://base-mainnet.g.alchemy.com/v2/Zx81kQpLm3RtYv7Wn2Bc")).toBe(
      `https://base-mainnet.g.alchemy.com/v2/${HIDDEN_SEGMENT}`,
    );
    expect(HIDDEN_SEGMENT).toBe("…");
    expect(redactUrl("https://rnwy.com/api/trust-check?id=1&chain=base")).toBe("https://rnwy.com/api/trust-check?id=1&chain=base");
    expect(scrubSecrets("invalid key tgk_123456", ["tgk_123456"])).toBe("invalid key ***");
    expect(sanitizeText("\u001b[31mREVOKED\u001b[0m\r\nnext")).toBe("REVOKED  next");
    expect(sanitizeText("ag\u200bent")).toBe("ag\\u{200B}ent");
    expect(markdownText("![img](https://attacker.example/p.png)")).toBe("!\\[img\\](https://attacker.example/p.png)");
  });
});
