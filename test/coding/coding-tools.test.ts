import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCodingTools } from "../../src/coding/tools/index.js";
import { createTempWorkspace, type TempWorkspace } from "./temp-workspace.js";

describe("createCodingTools", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await createTempWorkspace();
  });
  afterEach(() => temp.remove());

  it("returns the built-in tools in order, and says which mutate", () => {
    const tools = createCodingTools({ workspace: temp.workspace });
    expect(tools.map((tool) => tool.name)).toEqual([
      "read_file",
      "write_to_file",
      "replace_in_file",
      "apply_patch",
      "list_files",
      "search_files",
      "list_code_definition_names",
      "execute_command",
      "web_fetch",
      "ask_followup_question",
      "attempt_completion",
      "plan_mode_respond",
      "act_mode_respond",
      "new_task",
      "use_skill",
    ]);
    expect(tools.filter((tool) => tool.mutates).map((tool) => tool.name)).toEqual([
      "write_to_file",
      "replace_in_file",
      "apply_patch",
      "execute_command",
    ]);
  });

  it("gives every tool a JSON Schema object whose parameters are all described", () => {
    for (const tool of createCodingTools({ workspace: temp.workspace })) {
      const schema = z.toJSONSchema(tool.inputSchema) as {
        type: string;
        properties: Record<string, { description?: string }>;
      };
      expect(schema.type, tool.name).toBe("object");
      expect(Object.keys(schema.properties).length, tool.name).toBeGreaterThan(0);
      for (const [name, property] of Object.entries(schema.properties)) {
        expect(property.description, `${tool.name}.${name}`).toBeTruthy();
      }
      expect(tool.description.length, tool.name).toBeGreaterThan(40);
    }
  });

  it("passes the command timeout to execute_command", () => {
    const tools = createCodingTools({ workspace: temp.workspace, commandTimeoutSeconds: 7 });
    expect(tools.find((tool) => tool.name === "execute_command")?.description).toContain("Stopped after 7 s");
  });
});
