import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalPolicy } from "../agent/approval.js";
import { createTask, type Task, type TaskOutcome } from "../agent/task.js";
import { createModelClient } from "../llm/create-client.js";
import type { ModelClient, ModelConfig } from "../llm/types.js";
import type { Command, Event } from "../protocol/index.js";
import { environmentDetails } from "./environment.js";
import { buildSystemPrompt } from "./prompts/system-prompt.js";
import { createFileJournal } from "./session/file-journal.js";
import { bowlineHome, newTaskId, tasksDir } from "./session/paths.js";
import { createCodingTools } from "./tools/index.js";
import { createWorkspace } from "./workspace.js";

export interface TaskSessionOptions {
  cwd: string;
  modelConfig: ModelConfig;
  policy: ApprovalPolicy;
  interactive: boolean;
  emit(event: Event): void;
  /** Storage root; defaults to `$BOWLINE_HOME` or `~/.bowline`. */
  home?: string;
  /** A ready model client (tests, demo); otherwise one is created from `modelConfig`. */
  model?: ModelClient;
  commandTimeoutSeconds?: number;
  mode?: "plan" | "act";
}

export interface TaskSession {
  task: Task;
  taskDir: string;
  /** Bytes appended to the journal so far (appends only: this equals the journal's size). */
  journalBytesWritten(): number;
  run(text: string): Promise<TaskOutcome>;
  /** Commands from a host (answers, abort, follow-up messages). */
  dispatch(command: Command): void;
  close(): Promise<void>;
}

/** Creates a task in a workspace with the coding tools, its journal folder and its model. */
export async function createTaskSession(options: TaskSessionOptions): Promise<TaskSession> {
  const workspace = createWorkspace(options.cwd);
  const taskId = newTaskId();
  const taskDir = join(tasksDir(options.home ?? bowlineHome()), taskId);
  const journal = createFileJournal(taskDir);
  // The task loop retries failed requests itself (with back-off and a notice), so the SDK's
  // own retries are off unless the config asks for them; otherwise retries multiply.
  const model =
    options.model ??
    (await createModelClient({ ...options.modelConfig, maxRetries: options.modelConfig.maxRetries ?? 0 }));
  const shell = process.env.SHELL || "/bin/bash";
  const task = createTask({
    taskId,
    model,
    tools: createCodingTools({ workspace, commandTimeoutSeconds: options.commandTimeoutSeconds }),
    systemPrompt: buildSystemPrompt({ workspaceRoot: workspace.root, shell }),
    policy: options.policy,
    emit: options.emit,
    journal,
    interactive: options.interactive,
    mode: options.mode,
  });
  return {
    task,
    taskDir,
    journalBytesWritten: () => journal.bytesWritten(),
    async run(text) {
      writeFileSync(
        join(taskDir, "task.json"),
        `${JSON.stringify({ v: 1, id: taskId, workspace: workspace.root, task: text, provider: model.config.provider, model: model.config.model, createdAt: new Date().toISOString() }, null, 2)}\n`,
        { mode: 0o600 },
      );
      const details = await environmentDetails(workspace.root);
      return task.start(text, [{ type: "text", text: details }]);
    },
    dispatch(command) {
      switch (command.type) {
        case "answer":
          task.answer(command.askId, { response: command.response, text: command.text });
          break;
        case "abort":
          task.abort();
          break;
        case "set_mode":
          task.setMode(command.mode);
          break;
        case "send_message":
          void task.send(command.text);
          break;
        case "start_task":
          throw new Error("start_task: this session already has a task; create a new session.");
      }
    },
    close: () => journal.close(),
  };
}
