import { describe, expect, it } from "vitest";
import { buildSystemPrompt } from "../../../src/coding/prompts/system-prompt.js";

const base = {
  workspaceRoot: "/ws",
  shell: "/bin/bash",
  date: new Date("2026-01-02T00:00:00Z"),
  os: "linux 6.1",
};

describe("buildSystemPrompt", () => {
  it("native: no tools section, guidance for the built-in tools, the environment", () => {
    const prompt = buildSystemPrompt(base);
    expect(prompt).not.toContain("# Tools");
    expect(prompt).toContain("Use one or more tools in every response");
    expect(prompt).toContain("replace_in_file");
    expect(prompt).toContain("ask_followup_question");
    expect(prompt).toContain(
      "- Workspace root: /ws\n- Operating system: linux 6.1\n- Shell: /bin/bash\n- Today's date: 2026-01-02",
    );
  });

  it("XML: the tools section follows the opening paragraph", () => {
    const prompt = buildSystemPrompt({ ...base, toolSection: "# Tools\n## read_file" });
    expect(prompt).toMatch(
      /using the tools provided\.\n\n# Tools\n## read_file\n\n# How to work\n- Use a tool in every response/,
    );
  });

  it("leaves out guidance about tools that are not offered", () => {
    const prompt = buildSystemPrompt({
      ...base,
      toolNames: ["read_file", "apply_patch", "attempt_completion"],
    });
    expect(prompt).not.toContain("ask_followup_question");
    expect(prompt).not.toContain("replace_in_file");
    expect(prompt).not.toContain("Commands run");
    expect(prompt).toContain("Edit files with apply_patch");
  });

  it("compact: short, with the tools section and a one-line environment", () => {
    const prompt = buildSystemPrompt({ ...base, flavour: "compact", toolSection: "# Tools\n## x" });
    expect(prompt).toContain("# Tools\n## x");
    expect(prompt).toContain("When done, call attempt_completion.");
    expect(prompt.endsWith("Workspace root: /ws. OS: linux 6.1. Shell: /bin/bash. Date: 2026-01-02.")).toBe(
      true,
    );
    expect(prompt.length).toBeLessThan(buildSystemPrompt(base).length);
  });
});
