import type { HookAnswer } from "../../agent/pipeline/hooks.js";
import type { HookProcessResult } from "./run-hook-process.js";

/**
 * What one hook process said. Exit 0: stdout is empty (no opinion) or one JSON object with any of
 * `block` (boolean) + `reason` (string), `input` (any JSON), `context` (string). Exit 2: block, with
 * stderr as the reason. Any other ending is a problem, and the hook has no opinion.
 */
export function interpretHookResult(
  result: HookProcessResult,
  timeoutMs: number,
): { answer: HookAnswer; problems: string[] } {
  const none: HookAnswer = { type: "none" };
  const fail = (problem: string) => ({ answer: none, problems: [problem] });
  if (result.startError) return fail(`could not be started (${result.startError.message})`);
  if (result.timedOut) return fail(`timed out after ${timeoutMs} ms and was killed`);
  if (result.aborted) return fail("stopped: the task was aborted");
  if (result.exitCode === 2) {
    const reason = result.stderr.trim() || "blocked by a hook (exit code 2, no reason on stderr)";
    return { answer: { type: "block", reason }, problems: [] };
  }
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    const stderr = result.stderr.trim();
    return fail(stderr ? `${how}: ${preview(stderr)}` : how);
  }
  if (result.outputTooLarge) return fail("printed too much output; it was ignored");
  return parseStdout(result.stdout);
}

const KNOWN_FIELDS = ["block", "reason", "input", "context"];

function parseStdout(stdout: string): { answer: HookAnswer; problems: string[] } {
  const none: HookAnswer = { type: "none" };
  const text = stdout.trim();
  if (text === "") return { answer: none, problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { answer: none, problems: [`printed output that is not JSON, ignored: ${preview(text)}`] };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { answer: none, problems: [`printed JSON that is not an object, ignored: ${preview(text)}`] };
  }
  const fields = value as Record<string, unknown>;
  const problems: string[] = [];
  const unknown = Object.keys(fields).filter((key) => !KNOWN_FIELDS.includes(key));
  if (unknown.length > 0) {
    problems.push(`ignored unknown field(s) ${unknown.join(", ")} (known: ${KNOWN_FIELDS.join(", ")})`);
  }
  if (fields.block !== undefined && typeof fields.block !== "boolean") {
    return { answer: none, problems: [...problems, `"block" must be true or false; the output was ignored`] };
  }
  if (fields.block === true) {
    const reason =
      typeof fields.reason === "string" && fields.reason.trim() !== "" ? fields.reason : undefined;
    return { answer: { type: "block", reason: reason ?? "blocked by a hook (no reason given)" }, problems };
  }
  let context: string | undefined;
  if (typeof fields.context === "string") context = fields.context;
  else if (fields.context !== undefined) problems.push(`"context" must be a string; it was ignored`);
  const input = "input" in fields ? { value: fields.input } : undefined;
  return { answer: { type: "answer", input, context }, problems };
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= 300 ? flat : `${flat.slice(0, 300)}…`;
}
