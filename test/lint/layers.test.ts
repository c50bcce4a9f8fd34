import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/cli.js";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "bowline-layers-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
const check = (root: string) =>
  spawnSync(process.execPath, [join(REPO_ROOT, "scripts/check-layers.mjs"), root], { encoding: "utf8" });

describe("the layer rule", () => {
  it("passes on this repository", () => {
    expect(check(REPO_ROOT).status).toBe(0);
  });

  it("fails when an import points up a layer", () => {
    const result = check(
      tree({
        "src/llm/a.ts": 'import { x } from "../agent/b.js";\n',
        "src/agent/b.ts": "export const x = 1;\n",
      }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("llm must not import agent");
  });

  it("fails when a host imports another host, including dynamic imports", () => {
    const result = check(
      tree({
        "src/hosts/web/a.ts": 'const m = await import("../cli/b.js");\n',
        "src/hosts/cli/b.ts": "export {};\n",
      }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("host web must not import host cli");
  });

  it("allows imports that point down", () => {
    expect(
      check(
        tree({
          "src/hosts/cli/a.ts": 'import type { E } from "../../protocol/e.js";\n',
          "src/protocol/e.ts": "export type E = 1;\n",
        }),
      ).status,
    ).toBe(0);
  });
});
