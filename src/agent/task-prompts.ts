/** Texts the loop sends to the model on its own behalf. */

export const noToolsUsed = (xml = false): string =>
  [
    "[ERROR] Your previous response did not call a tool.",
    "Every response must call exactly the tool that moves the task forward.",
    ...(xml
      ? [
          "Tool calls are written as XML, for example:",
          "<attempt_completion>\n<result>What was done.</result>\n</attempt_completion>",
        ]
      : []),
    "- If the task is complete, call attempt_completion with the result.",
    "- If you need information only the user can give, call ask_followup_question.",
    "- Otherwise, carry on with the next step using a tool.",
    "(This is an automated message; do not answer it conversationally.)",
  ].join("\n");

export const incompleteXmlCall = (tool: string): string =>
  `[ERROR] Your ${tool} call was cut off before its closing tag </${tool}>, so nothing ran. Send the complete call, with every parameter closed.`;

export const oneToolPerMessage =
  "Not run: only one tool call per message is allowed. Make this call again in your next message if it is still needed.";

export const skippedAfterRejection =
  "Not run: the user rejected an earlier call in the same response. Take their answer into account first.";

export const userUnavailable = (): string =>
  "The user is not available to answer (this is a non-interactive run). Make the most reasonable assumption, say which one you made, and continue.";

export const mistakeFeedback = (feedback: string): string =>
  `You seem to be having trouble proceeding. The user has provided the following feedback to help guide you:\n<feedback>\n${feedback}\n</feedback>`;

export const interruptedByUser = "[Response interrupted by user]";

export const skippedAfterCompletion =
  "Not run: the task was completed by an earlier call in the same response.";

export const planModeRefusal = (tool: string): string =>
  `Refused: ${tool} changes files or runs commands, and the task is in PLAN MODE, where you explore with read-only tools and propose a plan. Present your plan with plan_mode_respond (or attempt_completion if you do not have it), or ask the user (ask_followup_question) to switch to act mode if the change is needed now.`;

export const actModeRefusal = (tool: string): string =>
  `Refused: ${tool} is for PLAN MODE, and the task is in ACT MODE. Carry on with the task, and finish with attempt_completion.`;

/** Told to the model with the next request after the person switches mode (or when a task starts in plan mode). */
export const modeSwitched = (mode: "plan" | "act"): string =>
  mode === "plan"
    ? "[The user switched to PLAN MODE. Explore with read-only tools and do not change files or run commands that change anything. When you know enough, present your plan with plan_mode_respond (or attempt_completion if you do not have it), offering choices where the user should decide. The user switches back to ACT MODE to have it carried out.]"
    : "[The user switched to ACT MODE. Carry out the task (and the plan agreed, if any) now; finish with attempt_completion.]";

export const completionBeforeResults = (tools: readonly string[]): string =>
  `Refused: attempt_completion came in the same message as ${[...new Set(tools)].join(", ")}, whose results you have not seen yet. Check that those changes worked (e.g. run the tests), then call attempt_completion again.`;

export const completionWithOpenItems = (items: readonly string[]): string =>
  `Refused: your task_progress checklist still has open items:\n${items.map((item) => `- [ ] ${item}`).join("\n")}\nFinish them, or update the checklist (mark them done or remove them with a reason), then call attempt_completion again.`;

export const compactRequest = (focus: string, xml: boolean): string =>
  [
    "The user asked to compact the conversation to free the context window.",
    focus.trim() ? `Keep the focus on: ${focus.trim()}` : "",
    "Call the condense tool now, with a detailed summary in `context`: the task and the user's requests, decisions, files changed and why, what is done, what remains, and anything the user said that must not be lost.",
    xml ? "Format: <condense>\n<context>your summary</context>\n</condense>" : "",
  ]
    .filter(Boolean)
    .join("\n");

export const condensedHistory = (task: string, summary: string): string =>
  `<task>\n${task}\n</task>\n<conversation_summary>\nThe conversation so far was condensed into this summary:\n${summary}\n</conversation_summary>\nContinue the task from here.`;

export const interruptedCall = (tool: string): string =>
  `[The ${tool} call was interrupted: Bowline stopped while it was running, so it may or may not ` +
  "have taken effect. Check its effect before relying on it or running it again.]";
