/**
 * Plan and act mode while a task runs: the model is told of a switch with its next request,
 * plan mode refuses what changes anything, and act mode refuses a plan-only tool.
 */
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import type { ToolHandler } from "../../src/agent/tool.js";
import type { RecordedRequest } from "../support/fake-model-server.js";
import { call, closeHarnesses, finishTurn, resultsSent, startHarness } from "./task-harness.js";

afterEach(closeHarnesses);

const PLAN_NOTE = "[The user switched to PLAN MODE.";
const ACT_NOTE = "[The user switched to ACT MODE.";

/** The text blocks of the request's last (user) message. */
const notesOf = (request: RecordedRequest): string[] =>
  request.body.messages
    .at(-1)
    .content.filter((block: any) => block.type === "text")
    .map((block: any) => block.text);

const present: ToolHandler<{ plan: string }> = {
  name: "present",
  description: "Presents a plan (plan mode only).",
  inputSchema: z.object({ plan: z.string() }),
  mutates: false,
  planModeOnly: true,
  summarize: () => "present",
  async execute(input) {
    return { content: "presented", completion: { result: input.plan } };
  },
};

it("tells the model of each switch once, refuses changes in plan mode and plan-only tools in act mode", async () => {
  let switchTo: ((mode: "plan" | "act") => void) | undefined;
  const h = await startHarness(
    (_request, index) => {
      if (index === 0) {
        switchTo?.("plan"); // the person presses Tab while the model works
        return { toolCalls: [call("echo", { text: "look" })] };
      }
      if (index === 1) return { toolCalls: [call("save", { name: "x" })] };
      if (index === 2) {
        switchTo?.("act");
        return { toolCalls: [call("echo", { text: "more" })] };
      }
      if (index === 3) return { toolCalls: [call("present", { plan: "p" })] };
      return finishTurn();
    },
    { extraTools: [present], policy: () => ({ type: "allow" }) },
  );
  switchTo = (mode) => h.task.setMode(mode);
  const outcome = await h.task.start("Do it.");
  expect(outcome.status).toBe("completed");
  const requests = h.server.requests;
  expect(notesOf(requests[0]!).some((text) => text.startsWith("[The user switched"))).toBe(false);
  expect(notesOf(requests[1]!).filter((text) => text.startsWith(PLAN_NOTE))).toHaveLength(1);
  // Said once: the next request in the same mode has no note.
  expect(notesOf(requests[2]!).some((text) => text.startsWith("[The user switched"))).toBe(false);
  expect(resultsSent(requests[2]!)[0]!.text).toMatch(/^Refused: save changes files .* PLAN MODE/);
  expect(h.log).not.toContain("save:x");
  expect(notesOf(requests[3]!).filter((text) => text.startsWith(ACT_NOTE))).toHaveLength(1);
  expect(resultsSent(requests[4]!)[0]).toMatchObject({
    isError: true,
    text: expect.stringMatching(/^Refused: present is for PLAN MODE, and the task is in ACT MODE/),
  });
});

it("a task begun in plan mode says so with its first request, and a plan-only tool ends the turn", async () => {
  const h = await startHarness([{ toolCalls: [call("present", { plan: "1. Read. 2. Fix." })] }], {
    extraTools: [present],
    mode: "plan",
  });
  const outcome = await h.task.start("Plan a fix.");
  expect(outcome).toMatchObject({ status: "completed", result: "1. Read. 2. Fix." });
  expect(notesOf(h.server.requests[0]!).filter((text) => text.startsWith(PLAN_NOTE))).toHaveLength(1);
});
