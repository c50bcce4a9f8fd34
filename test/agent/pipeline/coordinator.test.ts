import { describe, expect, it } from "vitest";
import { z } from "zod";
import { calledToolName, createCoordinator, shareHandler } from "../../../src/agent/pipeline/coordinator.js";
import { toolCategory } from "../../../src/agent/pipeline/tool-category.js";
import type { ToolContext, ToolHandler } from "../../../src/agent/tool.js";

const ctx: ToolContext = {
  taskId: "t",
  callId: "c",
  signal: new AbortController().signal,
  onProgress: () => {},
  askUser: async () => "",
};

/** A handler that answers with the name it was called as and the input it got. */
function echoHandler(name: string, extra: Partial<ToolHandler> & { category?: string } = {}) {
  const calls: Array<{ called: string | undefined; input: unknown }> = [];
  const handler: ToolHandler = {
    name,
    description: `${name} description`,
    inputSchema: z.object({}).passthrough(),
    mutates: true,
    summarize: () => name,
    execute: async (input, context) => {
      calls.push({ called: calledToolName(context), input });
      return { content: `${name} ran as ${calledToolName(context)}` };
    },
    ...extra,
  };
  return { handler, calls };
}

describe("the coordinator", () => {
  it("builds each handler once from its factory with the injected deps", async () => {
    const coordinator = createCoordinator<{ prefix: string }>();
    let built = 0;
    coordinator.registerFactory("read_file", (deps) => {
      built++;
      return { ...echoHandler("read_file").handler, description: `${deps.prefix} reader` };
    });
    expect(coordinator.has("read_file")).toBe(false);
    expect(coordinator.registerByName("read_file", { prefix: "validated" })).toBe(true);
    expect(built).toBe(1);
    expect(coordinator.getHandler("read_file")?.description).toBe("validated reader");
    await coordinator.execute("read_file", {}, ctx);
    await coordinator.execute("read_file", {}, ctx);
    expect(built).toBe(1);
  });

  it("registers nothing for a factory that returns undefined", () => {
    const coordinator = createCoordinator();
    coordinator.registerFactory("focus_chain", () => undefined);
    coordinator.registerFactory("read_file", () => echoHandler("read_file").handler);
    expect(coordinator.registerByName("focus_chain", undefined)).toBe(false);
    expect(coordinator.has("focus_chain")).toBe(false);
    expect(coordinator.registerAll(undefined)).toEqual(["read_file"]);
    expect(coordinator.availableNames()).toEqual(["read_file"]);
  });

  it("rejects a factory whose handler has another name, and an id without a factory", () => {
    const coordinator = createCoordinator();
    coordinator.registerFactory("replace_in_file", () => echoHandler("write_to_file").handler);
    expect(() => coordinator.registerByName("replace_in_file", undefined)).toThrow(/shareHandler/);
    expect(() => coordinator.registerByName("nope", undefined)).toThrow(/No handler factory for tool: nope/);
  });

  it("serves several names with one shared implementation, which sees the called name", async () => {
    const { handler: write, calls } = echoHandler("write_to_file", { category: "edit" } as never);
    const coordinator = createCoordinator();
    coordinator.register(write);
    coordinator.register(shareHandler("replace_in_file", write));
    coordinator.register(shareHandler("new_rule", write, { description: "Create a rule file." }));

    const replace = coordinator.getHandler("replace_in_file")!;
    expect(replace.name).toBe("replace_in_file");
    expect(replace.description).toBe("write_to_file description");
    expect(replace.mutates).toBe(true);
    expect(toolCategory(replace)).toBe("edit");
    expect(coordinator.getHandler("new_rule")?.description).toBe("Create a rule file.");

    const result = await coordinator.execute("replace_in_file", { path: "a" }, ctx);
    await coordinator.execute("new_rule", { path: "b" }, ctx);
    await coordinator.execute("write_to_file", { path: "c" }, ctx);
    expect(result.content).toBe("write_to_file ran as replace_in_file");
    expect(calls).toEqual([
      { called: "replace_in_file", input: { path: "a" } },
      { called: "new_rule", input: { path: "b" } },
      { called: "write_to_file", input: { path: "c" } },
    ]);
    expect(coordinator.availableNames()).toEqual(["write_to_file", "replace_in_file", "new_rule"]);
  });

  it("routes every name containing __mcp__ to use_mcp_tool, with the original name", async () => {
    const { handler: mcp, calls } = echoHandler("use_mcp_tool");
    const coordinator = createCoordinator();
    coordinator.register(mcp);
    expect(coordinator.getHandler("github__mcp__create_issue")).toBe(mcp);
    expect(coordinator.has("weather__mcp__forecast")).toBe(true);
    await coordinator.execute("github__mcp__create_issue", { title: "x" }, ctx);
    expect(calls).toEqual([{ called: "github__mcp__create_issue", input: { title: "x" } }]);
  });

  it("wraps use_subagents for configured subagents, once per name, and asks the predicate each time", async () => {
    const configured = new Set(["reviewer"]);
    const asked: string[] = [];
    const coordinator = createCoordinator({
      isConfiguredSubagent: (name) => {
        asked.push(name);
        return configured.has(name);
      },
    });
    expect(coordinator.has("use_subagent_reviewer")).toBe(false); // no use_subagents handler yet
    const { handler: subagents, calls } = echoHandler("use_subagents");
    coordinator.register(subagents);

    const first = coordinator.getHandler("use_subagent_reviewer");
    expect(first?.name).toBe("use_subagent_reviewer");
    expect(coordinator.getHandler("use_subagent_reviewer")).toBe(first);
    expect(coordinator.has("use_subagent_writer")).toBe(false);
    expect(coordinator.has("use_subagents")).toBe(true);
    expect(asked).toEqual(["reviewer", "reviewer", "reviewer", "writer"]);

    await coordinator.execute("use_subagent_reviewer", { prompt: "p" }, ctx);
    expect(calls).toEqual([{ called: "use_subagent_reviewer", input: { prompt: "p" } }]);

    configured.delete("reviewer");
    expect(coordinator.has("use_subagent_reviewer")).toBe(false);
  });

  it("rebuilds subagent wrappers when use_subagents is replaced", async () => {
    const coordinator = createCoordinator({ isConfiguredSubagent: () => true });
    coordinator.register(echoHandler("use_subagents").handler);
    const before = coordinator.getHandler("use_subagent_a");
    const { handler: replacement, calls } = echoHandler("use_subagents");
    coordinator.register(replacement);
    expect(coordinator.getHandler("use_subagent_a")).not.toBe(before);
    await coordinator.execute("use_subagent_a", {}, ctx);
    expect(calls).toHaveLength(1);
  });

  it("prefers a registered handler over a subagent wrapper", () => {
    const coordinator = createCoordinator({ isConfiguredSubagent: () => true });
    coordinator.register(echoHandler("use_subagents").handler);
    const own = echoHandler("use_subagent_special").handler;
    coordinator.register(own);
    expect(coordinator.getHandler("use_subagent_special")).toBe(own);
  });

  it("throws a named error when no handler is registered", async () => {
    const coordinator = createCoordinator();
    coordinator.register(echoHandler("read_file").handler);
    await expect(coordinator.execute("fly", {}, ctx)).rejects.toThrow("No handler registered for tool: fly");
    await expect(coordinator.execute("x__mcp__y", {}, ctx)).rejects.toThrow(
      "No handler registered for tool: x__mcp__y",
    );
  });

  it("lets a handler's own throw through", async () => {
    const coordinator = createCoordinator();
    coordinator.register({
      ...echoHandler("boom").handler,
      execute: async () => {
        throw new Error("disk on fire");
      },
    });
    await expect(coordinator.execute("boom", {}, ctx)).rejects.toThrow("disk on fire");
  });
});
