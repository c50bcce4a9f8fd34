import type { Interface } from "node:readline/promises";
import type { Command, Event } from "../../protocol/index.js";

/**
 * A plain line-by-line interactive host for terminals (until the full TUI): answers asks
 * by reading a line from stdin.
 */
export function createLineModeHost() {
  let rl: Interface | undefined;
  const reader = async () => {
    const { createInterface } = await import("node:readline/promises");
    rl ??= createInterface({ input: process.stdin, output: process.stderr });
    return rl;
  };
  return {
    handle(event: Event, dispatch: (command: Command) => void) {
      if (event.type !== "ask" || event.message.type !== "ask") return;
      const askId = event.message.id;
      const payload = event.message.payload;
      let question: string;
      if (payload.ask === "tool_approval") {
        const details = approvalDetails(payload.input);
        question = `${details ? `\n${details}\n` : ""}Allow ${payload.summary}? [y]es / [n]o / or type feedback: `;
      } else if (payload.ask === "followup") {
        const options = payload.options?.map((option, i) => `  ${i + 1}. ${option}`).join("\n");
        question = `\n? ${payload.question}\n${options ? `${options}\n` : ""}> `;
      } else if (payload.ask === "limit_reached") {
        question = `\n${payload.message}\nGo on with another budget's worth? [y]es / [n]o: `;
      } else {
        question = `\n${payload.message}\nType guidance to continue, or press Enter to stop: `;
      }
      void reader()
        .then((lines) => lines.question(question))
        .then((raw) => {
          const answer = raw.trim();
          dispatch(
            toCommand(askId, payload.ask, answer, payload.ask === "followup" ? payload.options : undefined),
          );
        });
    },
    close() {
      rl?.close();
    },
  };
}

function toCommand(askId: string, kind: string, answer: string, options?: string[]): Command {
  if (kind === "limit_reached") {
    return { type: "answer", askId, response: /^(y|yes)$/i.test(answer) ? "approve" : "deny" };
  }
  if (kind === "tool_approval") {
    if (/^(y|yes)$/i.test(answer)) return { type: "answer", askId, response: "approve" };
    if (answer === "" || /^(n|no)$/i.test(answer)) return { type: "answer", askId, response: "deny" };
    return { type: "answer", askId, response: "deny", text: answer };
  }
  if (kind === "followup") {
    const index = Number(answer);
    const chosen = options && Number.isInteger(index) ? options[index - 1] : undefined;
    return { type: "answer", askId, response: "message", text: chosen ?? answer };
  }
  return answer
    ? { type: "answer", askId, response: "message", text: answer }
    : { type: "answer", askId, response: "deny" };
}

/** Lines of a call's input shown at most, so a whole file does not scroll the question away. */
const MAX_DETAIL_LINES = 40;

/**
 * What an approval is for, shown above the question: the command, the edit's SEARCH/REPLACE
 * blocks or patch, the new file's content, or the input as JSON; long ones are cut.
 */
export function approvalDetails(input: unknown): string {
  const fields = (input ?? {}) as Record<string, unknown>;
  const command = fields.command;
  if (typeof command === "string") return `  $ ${command}`;
  const body = ["diff", "input", "content"]
    .map((key) => fields[key])
    .find((value) => typeof value === "string");
  const text = typeof body === "string" ? body : (JSON.stringify(input, null, 2) ?? "");
  const lines = text.replace(/\n$/, "").split("\n");
  const shown = lines.slice(0, MAX_DETAIL_LINES).map((line) => `  │ ${line}`);
  if (lines.length > MAX_DETAIL_LINES) shown.push(`  │ … ${lines.length - MAX_DETAIL_LINES} more lines`);
  return shown.join("\n");
}
