import { describe, expect, it } from "vitest";
import { selectVariant, type VariantSelection } from "../../../src/coding/tool-specs/select-variant.js";
import { VARIANTS } from "../../../src/coding/tool-specs/variants.js";

const all = () => true;

describe("selectVariant", () => {
  const cases: Array<[string, Omit<VariantSelection, "isRegistered">, string]> = [
    [
      "native by default (Anthropic)",
      { wireFormat: "anthropic-messages", model: "claude-sonnet-4-5" },
      "native",
    ],
    ["native by default (OpenAI Chat)", { wireFormat: "openai-chat", model: "qwen3-coder" }, "native"],
    [
      "xml forces generic",
      { wireFormat: "openai-chat", model: "qwen3-coder", toolProtocol: "xml" },
      "generic",
    ],
    [
      "xml on a next-gen model",
      { wireFormat: "anthropic-messages", model: "claude-opus-4-1", toolProtocol: "xml" },
      "next-gen",
    ],
    [
      "xml on an older Claude",
      { wireFormat: "anthropic-messages", model: "claude-3-7-sonnet-latest", toolProtocol: "xml" },
      "generic",
    ],
    [
      "compact when asked",
      { wireFormat: "openai-chat", model: "qwen2.5-coder:7b", compact: true },
      "compact",
    ],
    [
      "compact wins over native",
      { wireFormat: "openai-chat", model: "gpt-5", compact: true, toolProtocol: "native" },
      "compact",
    ],
    ["GPT-5", { wireFormat: "openai-chat", model: "gpt-5" }, "gpt"],
    ["GPT-5 mini behind a vendor prefix", { wireFormat: "openai-chat", model: "openai/gpt-5-mini" }, "gpt"],
    ["GPT-5.1 codex", { wireFormat: "openai-chat", model: "GPT-5.1-codex" }, "gpt"],
    ["gpt-oss", { wireFormat: "openai-chat", model: "gpt-oss:20b" }, "gpt"],
    [
      "GPT-5 chat is not the GPT-5 family",
      { wireFormat: "openai-chat", model: "gpt-5-chat-latest" },
      "native",
    ],
    ["GPT-4.1 is not either", { wireFormat: "openai-chat", model: "gpt-4.1" }, "native"],
    ["GPT-5 on XML", { wireFormat: "openai-chat", model: "gpt-5", toolProtocol: "xml" }, "next-gen"],
  ];
  for (const [name, selection, expected] of cases) {
    it(name, () => {
      expect(selectVariant({ ...selection, isRegistered: all }).id).toBe(expected);
    });
  }

  it("passes over gpt until apply_patch is registered", () => {
    const registered = new Set(["read_file", "write_to_file"]);
    const selection = { wireFormat: "openai-chat", model: "gpt-5" } as const;
    expect(selectVariant({ ...selection, isRegistered: (id) => registered.has(id) }).id).toBe("native");
    registered.add("apply_patch");
    expect(selectVariant({ ...selection, isRegistered: (id) => registered.has(id) }).id).toBe("gpt");
  });

  it("returns the variant data itself", () => {
    expect(selectVariant({ wireFormat: "anthropic-messages", model: "claude-sonnet-4-5" })).toBe(
      VARIANTS.native,
    );
  });
});

describe("VARIANTS", () => {
  it("uses native tools only where meant to", () => {
    const native = Object.values(VARIANTS)
      .filter((v) => v.nativeTools)
      .map((v) => v.id);
    expect(native.sort()).toEqual(["gpt", "native"]);
  });

  it("gives gpt apply_patch instead of write_to_file and replace_in_file", () => {
    expect(VARIANTS.gpt.tools).toContain("apply_patch");
    expect(VARIANTS.gpt.tools).not.toContain("write_to_file");
    expect(VARIANTS.gpt.tools).not.toContain("replace_in_file");
  });

  it("next-gen and native are generic plus the web tools", () => {
    const extra = VARIANTS["next-gen"].tools.filter((id) => !VARIANTS.generic.tools.includes(id));
    expect(extra).toEqual(["web_fetch", "web_search"]);
    expect(VARIANTS.native.tools).toEqual(VARIANTS["next-gen"].tools);
  });

  it("keeps compact to the eight essential tools", () => {
    expect(VARIANTS.compact.tools).toEqual([
      "read_file",
      "write_to_file",
      "replace_in_file",
      "search_files",
      "list_files",
      "execute_command",
      "ask_followup_question",
      "attempt_completion",
    ]);
    expect(VARIANTS.compact.prompt).toBe("compact");
  });
});

describe("the catalogue's preferred variant", () => {
  const select = (model: string, preferred: string | undefined, toolProtocol?: "native" | "xml") =>
    selectVariant({ wireFormat: "openai-chat", model, preferred, toolProtocol }).id;

  it("wins over the family rules when it speaks the protocol in use", () => {
    expect(select("some-new-model", "gpt")).toBe("gpt");
    expect(select("some-new-model", undefined)).toBe("native");
    expect(select("some-new-model", "next-gen", "xml")).toBe("next-gen");
  });

  it("is passed over when it does not fit the protocol", () => {
    expect(select("some-new-model", "gpt", "xml")).toBe("generic");
    expect(select("some-new-model", "no-such-variant")).toBe("native");
  });

  it("compact sends a small model to the compact prompt unless native calls are forced", () => {
    expect(select("qwen2.5-coder:7b", "compact")).toBe("compact");
    expect(select("qwen2.5-coder:7b", "compact", "native")).toBe("native");
  });
});
