import { describe, expect, it } from "vitest";
import {
  createLoopDetector,
  type LoopCheck,
  toolCallSignature,
} from "../../../src/agent/pipeline/loop-detection.js";

const kinds = (checks: LoopCheck[]) => checks.map((check) => check.kind);

describe("tool call signatures", () => {
  it("sort keys at every depth and ignore the top-level task_progress", () => {
    const a = toolCallSignature("t", {
      b: 1,
      a: { y: [1, { q: 1, p: 2 }], x: 2 },
      task_progress: "- [ ] one",
    });
    const b = toolCallSignature("t", {
      a: { x: 2, y: [1, { p: 2, q: 1 }] },
      b: 1,
      task_progress: "- [x] one",
    });
    expect(a).toBe(b);
    expect(a).toBe('t {"a":{"x":2,"y":[1,{"p":2,"q":1}]},"b":1}');
  });

  it("tell different tools, values and array orders apart, and keep a nested task_progress", () => {
    expect(toolCallSignature("a", { x: 1 })).not.toBe(toolCallSignature("b", { x: 1 }));
    expect(toolCallSignature("a", { x: [1, 2] })).not.toBe(toolCallSignature("a", { x: [2, 1] }));
    expect(toolCallSignature("a", { x: { task_progress: 1 } })).not.toBe(toolCallSignature("a", { x: {} }));
    expect(toolCallSignature("a", undefined)).toBe("a {}");
    expect(createLoopDetector().signature("a", { y: 1, x: 2 })).toBe('a {"x":2,"y":1}');
  });

  it("survive a cyclic input", () => {
    const input: Record<string, unknown> = { a: 1 };
    input.self = input;
    expect(toolCallSignature("t", input)).toBe('t {"a":1,"self":"[Circular]"}');
  });
});

describe("repeated identical calls", () => {
  it("warn once at the third and escalate at the fifth", () => {
    const detector = createLoopDetector();
    const checks = Array.from({ length: 5 }, () => detector.record("read_file", { path: "a" }, "ok"));
    expect(kinds(checks)).toEqual(["none", "none", "warning", "none", "escalate"]);
    expect(checks[2]).toMatchObject({ pattern: "repeat" });
    expect(checks[2]!.kind === "warning" && checks[2]!.message).toBe(
      "Tool [read_file] has been called 3 times in a row with identical arguments. This is not making progress. Use a different tool or different arguments instead of repeating the same call.",
    );
    expect(checks[4]!.kind === "escalate" && checks[4]!.message).toMatch(/read_file 5 times/);
  });

  it("count regardless of outcome and ignore task_progress changes", () => {
    const detector = createLoopDetector();
    const checks = [
      detector.record("x", { a: 1, task_progress: "1" }, "ok"),
      detector.record("x", { task_progress: "2", a: 1 }, "error"),
      detector.record("x", { a: 1 }, "ok"),
    ];
    expect(kinds(checks)).toEqual(["none", "none", "warning"]);
  });

  it("start over when a different call comes between", () => {
    const detector = createLoopDetector();
    const checks = [
      detector.record("x", { a: 1 }, "ok"),
      detector.record("x", { a: 1 }, "ok"),
      detector.record("x", { a: 2 }, "ok"),
      detector.record("x", { a: 2 }, "ok"),
      detector.record("x", { a: 2 }, "ok"),
    ];
    expect(kinds(checks)).toEqual(["none", "none", "none", "none", "warning"]);
  });

  it("start afresh after an escalation, and after reset", () => {
    const detector = createLoopDetector();
    const run = (n: number) => Array.from({ length: n }, () => detector.record("x", {}, "ok").kind);
    expect(run(5).at(-1)).toBe("escalate");
    expect(run(3)).toEqual(["none", "none", "warning"]);
    detector.reset();
    expect(run(3)).toEqual(["none", "none", "warning"]);
  });

  it("honour custom thresholds and reject nonsensical ones", () => {
    const detector = createLoopDetector({ softThreshold: 2, hardThreshold: 3 });
    expect(kinds([1, 2, 3].map(() => detector.record("x", {}, "ok")))).toEqual([
      "none",
      "warning",
      "escalate",
    ]);
    expect(() => createLoopDetector({ softThreshold: 5, hardThreshold: 5 })).toThrow(/thresholds/);
    expect(() => createLoopDetector({ softThreshold: 1 })).toThrow(/thresholds/);
  });
});

describe("a failing call alternating with another", () => {
  const A = ["replace_in_file", { path: "a.ts", diff: "same" }] as const;
  const B = ["read_file", { path: "a.ts" }] as const;

  it("warns when the third A-B pair completes and escalates at the fifth", () => {
    const detector = createLoopDetector();
    const checks: LoopCheck[] = [];
    for (let pair = 0; pair < 5; pair++) {
      checks.push(detector.record(...A, "error"));
      checks.push(detector.record(...B, "ok"));
    }
    const byPair = [0, 1, 2, 3, 4].map((pair) => kinds(checks.slice(pair * 2, pair * 2 + 2)).join(" "));
    expect(byPair).toEqual(["none none", "none none", "none warning", "none none", "none escalate"]);
    expect(checks[5]).toMatchObject({ kind: "warning", pattern: "alternate" });
    const warning = checks[5]!.kind === "warning" ? checks[5]!.message : "";
    expect(warning).toContain("Tool [replace_in_file] has failed 3 times with identical arguments");
    expect(warning).toContain("[read_file]");
    expect(checks[9]).toMatchObject({ kind: "escalate", pattern: "alternate" });
  });

  it("does not count when A succeeds", () => {
    const detector = createLoopDetector();
    const checks: LoopCheck[] = [];
    for (let pair = 0; pair < 5; pair++) {
      checks.push(detector.record(...A, "ok"));
      checks.push(detector.record(...B, "ok"));
    }
    expect(checks.every((check) => check.kind === "none")).toBe(true);
  });

  it("does not count the fix-and-retest cycle, where the call between differs", () => {
    const detector = createLoopDetector();
    const checks: LoopCheck[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      checks.push(detector.record("execute_command", { command: "npm test" }, "error"));
      checks.push(detector.record("replace_in_file", { path: "a.ts", diff: `fix ${attempt}` }, "ok"));
    }
    expect(checks.every((check) => check.kind === "none")).toBe(true);
  });

  it("starts counting again when the pattern breaks", () => {
    const detector = createLoopDetector();
    const checks: LoopCheck[] = [];
    const pair = () => {
      checks.push(detector.record(...A, "error"));
      checks.push(detector.record(...B, "ok"));
    };
    pair();
    pair();
    checks.push(detector.record("list_files", { path: "." }, "ok"));
    pair();
    pair();
    expect(checks.every((check) => check.kind === "none")).toBe(true);
    pair();
    expect(checks.at(-1)?.kind).toBe("warning");
  });

  it("counts a pattern that begins mid-history (B first) from its first failing A", () => {
    const detector = createLoopDetector();
    const checks: LoopCheck[] = [detector.record(...B, "ok")];
    for (let pair = 0; pair < 3; pair++) {
      checks.push(detector.record(...A, "error"));
      checks.push(detector.record(...B, "ok"));
    }
    expect(kinds(checks)).toEqual(["none", "none", "none", "none", "none", "none", "warning"]);
  });

  it("fires once per run when both calls fail", () => {
    const detector = createLoopDetector();
    const checks: LoopCheck[] = [];
    for (let pair = 0; pair < 4; pair++) {
      checks.push(detector.record(...A, "error"));
      checks.push(detector.record(...B, "error"));
    }
    expect(checks.filter((check) => check.kind === "warning")).toHaveLength(1);
    expect(checks[5]?.kind).toBe("warning");
  });
});
