import { describe, expect, it } from "vitest";
import { anthropicConverter } from "../../../src/agent/tool-set/converters/anthropic.js";
import { openAiChatConverter } from "../../../src/agent/tool-set/converters/openai-chat.js";
import { createDynamicSpecSet } from "../../../src/agent/tool-set/dynamic-specs.js";
import { createToolSetRegistry } from "../../../src/agent/tool-set/registry.js";
import { stableKey } from "../../../src/agent/tool-set/stable-key.js";
import { ctx, spec, variant } from "./fixtures.js";

const descriptions = (specs: readonly { name: string; description: string }[]) =>
  specs.map((s) => s.description);

describe("ToolSetRegistry registration and lookup", () => {
  it("replaces an earlier spec of the same family and id", () => {
    const registry = createToolSetRegistry();
    registry.register(spec("read_file", "generic", { description: "old" }));
    registry.register(spec("read_file", "generic", { description: "new" }));
    expect(registry.lookup("read_file", "generic")?.description).toBe("new");
    expect(registry.enabledSpecs(variant(["read_file"]), ctx)).toHaveLength(1);
  });

  it("falls back from the exact family to generic, then to any family that registered the id", () => {
    const registry = createToolSetRegistry();
    registry.register(spec("a", "generic"));
    registry.register(spec("a", "compact"));
    registry.register(spec("b", "next-gen"));
    registry.register(spec("b", "gpt"));
    expect(registry.lookup("a", "compact")?.description).toBe("a (compact)");
    expect(registry.lookup("a", "native")?.description).toBe("a (generic)");
    expect(registry.lookup("b", "native")?.description).toBe("b (next-gen)");
    expect(registry.lookup("b", "gpt")?.description).toBe("b (gpt)");
    expect(registry.lookup("c", "generic")).toBeUndefined();
    expect(registry.has("b")).toBe(true);
    expect(registry.has("c")).toBe(false);
  });

  it("resolves the variant's ids in variant order, dropping unknown ids", () => {
    const registry = createToolSetRegistry();
    for (const id of ["a", "b", "c"]) registry.register(spec(id));
    registry.register(spec("b", "compact"));
    const specs = registry.enabledSpecs(variant(["c", "missing", "b", "a"], "compact"), ctx);
    expect(descriptions(specs)).toEqual(["c (generic)", "b (compact)", "a (generic)"]);
  });

  it("drops specs whose contextRequirements fail", () => {
    const registry = createToolSetRegistry();
    registry.register(spec("ask", "generic", { contextRequirements: (c) => !c.yolo }));
    registry.register(spec("read"));
    const v = variant(["ask", "read"]);
    expect(descriptions(registry.enabledSpecs(v, ctx))).toEqual(["ask (generic)", "read (generic)"]);
    expect(descriptions(registry.enabledSpecs(v, { ...ctx, yolo: true }))).toEqual(["read (generic)"]);
  });

  it("yields [] for a variant without tools, even with dynamic specs", () => {
    const registry = createToolSetRegistry();
    registry.register(spec("a"));
    expect(registry.enabledSpecs(variant([]), ctx, { version: 1, specs: [spec("x")] })).toEqual([]);
  });
});

describe("ToolSetRegistry dynamic specs", () => {
  it("appends dynamic specs, replaces the static spec of their id, and skips taken names", () => {
    const registry = createToolSetRegistry();
    for (const id of ["read", "use_mcp_tool", "done"]) registry.register(spec(id));
    const dynamic = {
      version: 1,
      specs: [
        spec("use_mcp_tool", "generic", { name: "git__mcp__status", description: "git status" }),
        spec("use_mcp_tool", "generic", { name: "read", description: "clashes with read" }),
        spec("use_mcp_tool", "generic", {
          name: "git__mcp__push",
          description: "never offered",
          contextRequirements: () => false,
        }),
      ],
    };
    const specs = registry.enabledSpecs(variant(["read", "use_mcp_tool", "done"]), ctx, dynamic);
    expect(specs.map((s) => s.name)).toEqual(["read", "done", "git__mcp__status"]);
  });
});

describe("ToolSetRegistry cache", () => {
  const setup = () => {
    const registry = createToolSetRegistry();
    registry.register(spec("a"));
    registry.register(spec("b"));
    return registry;
  };

  it("returns the same instances while variant, ctx and dynamic version are unchanged", () => {
    const registry = setup();
    const v = variant(["a", "b"]);
    const dynamic = createDynamicSpecSet();
    const specs = registry.enabledSpecs(v, ctx, dynamic.current());
    const tools = registry.convertedTools(v, ctx, anthropicConverter, dynamic.current());
    expect(registry.enabledSpecs(v, { ...ctx }, dynamic.current())).toBe(specs);
    expect(registry.convertedTools(v, { ...ctx, skills: [] }, anthropicConverter, dynamic.current())).toBe(
      tools,
    );
    expect(Object.isFrozen(specs)).toBe(true);
    // Each converter has its own cached output.
    const chat = registry.convertedTools(v, ctx, openAiChatConverter, dynamic.current());
    expect(chat).not.toBe(tools);
    expect(registry.convertedTools(v, ctx, openAiChatConverter, dynamic.current())).toBe(chat);
  });

  it("builds anew when ctx, the dynamic version or the registrations change", () => {
    const registry = setup();
    const v = variant(["a", "b"]);
    const dynamic = createDynamicSpecSet();
    const first = registry.enabledSpecs(v, ctx, dynamic.current());
    const tools = registry.convertedTools(v, ctx, anthropicConverter, dynamic.current());

    expect(registry.enabledSpecs(v, { ...ctx, cwd: "/other" }, dynamic.current())).not.toBe(first);
    expect(
      registry.convertedTools(v, { ...ctx, mode: "plan" }, anthropicConverter, dynamic.current()),
    ).not.toBe(tools);

    dynamic.set("mcp", [spec("x")]);
    const withDynamic = registry.enabledSpecs(v, ctx, dynamic.current());
    expect(withDynamic).not.toBe(first);
    expect(withDynamic.map((s) => s.name)).toEqual(["a", "b", "x"]);

    registry.register(spec("a", "generic", { description: "changed" }));
    const afterRegister = registry.enabledSpecs(v, ctx, dynamic.current());
    expect(afterRegister).not.toBe(withDynamic);
    expect(afterRegister[0]?.description).toBe("changed");
  });

  it("keys on the variant's tools, not only its id", () => {
    const registry = setup();
    expect(registry.enabledSpecs(variant(["a"], "generic", "v"), ctx).map((s) => s.name)).toEqual(["a"]);
    expect(registry.enabledSpecs(variant(["b"], "generic", "v"), ctx).map((s) => s.name)).toEqual(["b"]);
  });

  it("keeps at most cacheSize entries, evicting the least recently used", () => {
    const registry = createToolSetRegistry({ cacheSize: 2 });
    registry.register(spec("a"));
    const v = variant(["a"]);
    const hot = registry.enabledSpecs(v, ctx);
    registry.enabledSpecs(v, { ...ctx, cwd: "/1" });
    expect(registry.enabledSpecs(v, ctx)).toBe(hot); // touched: now most recent
    registry.enabledSpecs(v, { ...ctx, cwd: "/2" }); // evicts /1
    expect(registry.enabledSpecs(v, ctx)).toBe(hot);
  });
});

describe("stableKey", () => {
  it("ignores key order and undefined properties, and keeps array order", () => {
    expect(stableKey({ a: 1, b: [1, 2], c: undefined })).toBe(stableKey({ b: [1, 2], a: 1 }));
    expect(stableKey({ b: [2, 1] })).not.toBe(stableKey({ b: [1, 2] }));
    expect(stableKey({ a: { y: 1, x: "s" } })).toBe('{"a":{"x":"s","y":1}}');
  });
});
