/** What the line-mode host shows above an approval question. */
import { expect, it } from "vitest";
import { approvalDetails } from "../../src/hosts/cli/line-mode.js";

it("shows the command, the edit's blocks, or the input as JSON, and cuts long ones", () => {
  expect(approvalDetails({ command: "rm -rf dist" })).toBe("  $ rm -rf dist");
  const diff = "------- SEARCH\n  return a - b;\n=======\n  return a + b;\n+++++++ REPLACE";
  expect(approvalDetails({ path: "math.js", diff })).toBe(
    diff
      .split("\n")
      .map((line) => `  │ ${line}`)
      .join("\n"),
  );
  const content = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
  const shown = approvalDetails({ path: "big.txt", content }).split("\n");
  expect(shown).toHaveLength(41);
  expect(shown[39]).toBe("  │ line 39");
  expect(shown[40]).toBe("  │ … 60 more lines");
  expect(approvalDetails({ url: "https://example.com" })).toBe(
    '  │ {\n  │   "url": "https://example.com"\n  │ }',
  );
});
