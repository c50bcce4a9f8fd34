import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkNotIgnored, commandMentionsIgnored } from "../../../src/coding/ignore/access.js";
import { createIgnoreRules } from "../../../src/coding/ignore/ignore-rules.js";
import { createTempWorkspace, type TempWorkspace } from "../temp-workspace.js";

describe("createIgnoreRules", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await createTempWorkspace({
      ".bowlineignore": "# secrets\n.env\nsecrets/\n!secrets/README.md\n/private.txt\n",
      ".env": "KEY=1",
      "secrets/key.pem": "k",
      "private.txt": "p",
      "sub/private.txt": "p",
      "src/a.ts": "a",
    });
  });
  afterEach(() => temp.remove());
  const abs = (rel: string) => path.join(temp.root, rel);

  it("reads .bowlineignore at the root", () => {
    const rules = createIgnoreRules(temp.root);
    expect(rules.sources).toEqual([".bowlineignore"]);
    expect(rules.patterns).toEqual([".env", "secrets/", "!secrets/README.md", "/private.txt"]);
    expect(rules.isIgnored(abs(".env"))).toBe(true);
    expect(rules.isIgnored(abs("secrets"))).toBe(true);
    expect(rules.isIgnored(abs("secrets/key.pem"))).toBe(true);
    expect(rules.isIgnored(abs("private.txt"))).toBe(true);
    expect(rules.isIgnored(abs("sub/private.txt"))).toBe(false);
    expect(rules.isIgnored(abs("src/a.ts"))).toBe(false);
    expect(rules.isIgnored(temp.root)).toBe(false);
    expect(rules.isIgnored(path.dirname(temp.root))).toBe(false);
    expect(rules.isIgnored(abs(".bowlineignore"))).toBe(true);
  });

  it("reads .clineignore too, with .bowlineignore winning", async () => {
    await temp.write({ ".clineignore": "*.md\nsrc/\n", ".bowlineignore": "!README.md\n" });
    const rules = createIgnoreRules(temp.root);
    expect(rules.sources).toEqual([".clineignore", ".bowlineignore"]);
    expect(rules.isIgnored(abs("notes.md"), false)).toBe(true);
    expect(rules.isIgnored(abs("README.md"), false)).toBe(false);
    expect(rules.isIgnored(abs("src/a.ts"))).toBe(true);
  });

  it("reloads when the file changes", async () => {
    const rules = createIgnoreRules(temp.root, { recheckMs: 0 });
    expect(rules.isIgnored(abs("src/a.ts"))).toBe(false);
    await fs.writeFile(abs(".bowlineignore"), "src/\n# longer so the size changes\n");
    expect(rules.isIgnored(abs("src/a.ts"))).toBe(true);
    await fs.rm(abs(".bowlineignore"));
    expect(rules.reloadIfChanged()).toBe(true);
    expect(rules.sources).toEqual([]);
    expect(rules.isIgnored(abs(".env"))).toBe(false);
  });

  it("checkNotIgnored gives the model-facing message", () => {
    const rules = createIgnoreRules(temp.root);
    expect(checkNotIgnored(rules, abs("src/a.ts"), temp.workspace)).toBeUndefined();
    expect(checkNotIgnored(undefined, abs(".env"), temp.workspace)).toBeUndefined();
    expect(checkNotIgnored(rules, abs("secrets/key.pem"), temp.workspace)).toMatch(
      /^Access to secrets\/key\.pem is blocked by \.bowlineignore\./,
    );
  });

  it("commandMentionsIgnored spots ignored paths among a command's words", () => {
    const rules = createIgnoreRules(temp.root);
    const check = (command: string) => commandMentionsIgnored(command, rules, temp.workspace);
    expect(check("cat .env")).toMatch(/uses \.env, which is blocked by \.bowlineignore/);
    expect(check("ls src && grep -r KEY secrets/")).toMatch(/uses secrets,/);
    expect(check(`python -c 'print(1)' --input="${abs("private.txt")}"`)).toMatch(/uses private\.txt/);
    expect(check("cat src/a.ts | wc -l")).toBeUndefined();
    expect(check("cat sub/private.txt")).toBeUndefined();
    expect(check("curl https://example.com/.env")).toBeUndefined();
    expect(commandMentionsIgnored("cat .env", undefined, temp.workspace)).toBeUndefined();
  });
});
