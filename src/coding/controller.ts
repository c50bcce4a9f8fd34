import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalPolicy } from "../agent/approval.js";
import type { TaskLimits } from "../agent/limits.js";
import { toolCategory } from "../agent/pipeline/tool-category.js";
import type { RetryPolicy } from "../agent/retry.js";
import { createTask, type Task, type TaskOutcome } from "../agent/task.js";
import { lookupModel } from "../llm/catalogue.js";
import { createModelClient } from "../llm/create-client.js";
import type { ContentBlock, ModelClient, ModelConfig, ModelInfo } from "../llm/types.js";
import type { Command, Event, ImageAttachment, Say } from "../protocol/index.js";
import { findBrowser } from "./browser/find-browser.js";
import { environmentDetails } from "./environment.js";
import { startAtFirstRequest } from "./first-request.js";
import { createExecutableHookRunner, trustedHookDirs } from "./hooks/executable-hooks.js";
import { createIgnoreRules } from "./ignore/index.js";
import { discoverAgents } from "./instructions/agents.js";
import { loadRules, rulesSection } from "./instructions/rules.js";
import { discoverSkills, skillsSection } from "./instructions/skills.js";
import type { McpHub } from "./mcp/hub.js";
import { answerMcpCommand, createMcpAutoApprove, openMcpHub, type RunningMcpHub } from "./mcp/index.js";
import { BackgroundRegistry } from "./process/background-registry.js";
import { checkReadOnlyLine } from "./safety/command-check.js";
import { composeApprovalPolicy } from "./safety/permission-policy.js";
import { formatRule } from "./safety/permission-rules.js";
import { createPermissionDecider, loadPermissionSetup } from "./safety/permission-setup.js";
import { rememberRule } from "./safety/remembered-rules.js";
import { recheckSandbox, type SandboxAvailability } from "./safety/sandbox.js";
import {
  createSecretMasker,
  envFileSecrets,
  environmentSecrets,
  withSecretMasking,
} from "./safety/secrets.js";
import { loadShellParser } from "./safety/shell-parser.js";
import { type ContinueFrom, openStoredTask, resumeNote } from "./session/continue-task.js";
import { createFileJournal } from "./session/file-journal.js";
import { loadSession } from "./session/load-session.js";
import { bowlineHome, newTaskId, tasksDir } from "./session/paths.js";
import { answerSessionCommand, type SessionCommandContext } from "./session-commands.js";
import { createSubagentRunner } from "./subagents.js";
import { openSessionCheckpoints } from "./task-checkpoints.js";
import { prepareToolOffer } from "./tool-offer.js";
import { createBrowserActionTool } from "./tools/browser-action.js";
import { createCondenseTool } from "./tools/condense.js";
import { createCodingTools } from "./tools/index.js";
import { createUseSubagentsTool } from "./tools/use-subagents.js";
import { createWorkspace } from "./workspace.js";

export interface TaskSessionOptions {
  cwd: string;
  /** Continue a stored task (its id), or fork one from an entry into a new task. */
  continueFrom?: ContinueFrom;
  modelConfig: ModelConfig;
  /** A model of its own for plan mode (settings `planModel`). */
  planModelConfig?: ModelConfig;
  /**
   * What happens to a call the approval settings (`~/.bowline/approvals.json`,
   * `.bowline/approvals.json`) do not allow on their own: ask, allow (`--yes`, `--allow`) or deny.
   */
  policy: ApprovalPolicy;
  interactive: boolean;
  emit(event: Event): void;
  /** Storage root; defaults to `$BOWLINE_HOME` or `~/.bowline`. */
  home?: string;
  /** A ready model client (tests, demo); otherwise one is created from `modelConfig`. */
  model?: ModelClient;
  commandTimeoutSeconds?: number;
  mode?: "plan" | "act";
  /** Forces native tool calling or the XML text protocol. */
  toolProtocol?: "native" | "xml";
  /** The compact variant for small local models. */
  compact?: boolean;
  /** The focus chain: the model keeps a task_progress checklist. */
  focusChain?: boolean;
  /** Every call is approved (no questions); tools that ask the person are not offered. */
  yolo?: boolean;
  /**
   * The sandbox probe's answer when the host started it already (the CLI does, before its
   * bundle loads: a process spawned while Bowline is small costs less); default: probed here.
   */
  sandboxProbe?: Promise<SandboxAvailability>;
  /** Connected MCP servers (the hub arrives with the MCP issue; tests pass a double). */
  mcpHub?: McpHub;
  /** What is known of the model (prices for costs, image support); default: the catalogue's entry. */
  modelInfo?: ModelInfo;
  /** Retries of failed model requests (default: DEFAULT_RETRY). */
  retry?: RetryPolicy;
  /** A model stream silent this long is abandoned and retried. */
  streamIdleTimeoutMs?: number;
  /** Budgets that pause or stop the task. */
  limits?: TaskLimits;
  /** Checkpoints of the workspace at the start and after each changing step (default on). */
  checkpoints?: boolean;
}

export interface TaskSession {
  task: Task;
  taskDir: string;
  /** Bytes appended to the journal so far (appends only: this equals the journal's size). */
  journalBytesWritten(): number;
  /** Starts (or continues) the task with the person's message and the images they attached. */
  run(text: string, images?: ImageAttachment[]): Promise<TaskOutcome>;
  /** Commands from a host (answers, abort, follow-up messages). */
  dispatch(command: Command): void;
  close(): Promise<void>;
}

/** Creates a task in a workspace with the coding tools, its journal folder and its model. */
export async function createTaskSession(options: TaskSessionOptions): Promise<TaskSession> {
  const home = options.home ?? bowlineHome();
  const stored = options.continueFrom ? openStoredTask(home, options.continueFrom) : undefined;
  // A continued task runs in its own workspace, wherever the command was started.
  const workspace = createWorkspace(stored?.meta.workspace ?? options.cwd);
  const taskId = stored?.taskId ?? newTaskId();
  const taskDir = join(tasksDir(home), taskId);
  // File reads start now and finish while the model's SDK loads (CPU-bound).
  const probe = options.sandboxProbe;
  const setupLoad = loadPermissionSetup({
    home,
    workspace,
    yolo: options.yolo,
    ...(probe ? { detectSandbox: () => probe } : {}),
  });
  setupLoad.catch(() => undefined); // awaited below; this only avoids an unhandled rejection meanwhile
  const detailsLoad = environmentDetails(workspace.root);
  detailsLoad.catch(() => undefined); // awaited in run(); this only avoids an unhandled rejection meanwhile
  const journal = createFileJournal(taskDir);
  if (stored?.forkRecord) journal.appendApi(stored.forkRecord);
  const loaded = stored ? loadSession(home, taskId) : undefined;
  for (const warning of loaded?.warnings ?? [])
    options.emit({ type: "error", code: "storage_error", message: warning, fatal: false });
  // The task loop retries failed requests itself (with back-off and a notice), so the SDK's
  // own retries are off unless the config asks for them; otherwise retries multiply.
  const clientFor = (config: ModelConfig) =>
    createModelClient({
      ...config,
      maxRetries: config.maxRetries ?? 0,
      modelInfo: config.modelInfo ?? lookupModel(config.provider, config.model).info,
    });
  // A continued task keeps the model it was switched to (`/model`), on the same provider.
  const switched = loaded?.model;
  const keepSwitched =
    switched !== undefined &&
    switched.provider === options.modelConfig.provider &&
    switched.model !== options.modelConfig.model;
  const { modelInfo: _configured, ...configured } = options.modelConfig;
  const model =
    options.model ??
    (await clientFor(keepSwitched ? { ...configured, model: switched.model } : options.modelConfig));
  let actModelConfig = model.config;
  const planModel = options.planModelConfig ? await clientFor(options.planModelConfig) : undefined;
  const modelInfo = options.modelInfo ?? lookupModel(model.config.provider, model.config.model).info;
  const setup = await setupLoad;
  const ignored = setup.ignored;
  const shell = process.env.SHELL || "/bin/bash";
  const skills = discoverSkills(home, workspace.root);
  const rules = loadRules(home, workspace.root);
  // Permission rules on parsed commands and paths; what they leave open is the host's to decide.
  const permissions = composeApprovalPolicy({
    decide: createPermissionDecider(setup),
    host: options.policy,
    interactive: options.interactive,
  });
  const mcpHub =
    options.mcpHub ?? openMcpHub({ home, workspaceRoot: workspace.root, env: process.env, start: false });
  // The session's own MCP servers, the baseline checkpoint and the shell grammar are started
  // once the first model request is on its way, never before it: their process spawns and wasm
  // compilation would delay it, and no tool runs before the model's first reply (a mutation
  // waits for the baseline, a command for the grammar).
  let startBaseline = () => {};
  const taskEmit = startAtFirstRequest(
    {
      start() {
        if (!options.mcpHub) (mcpHub as RunningMcpHub).start();
        startBaseline();
        loadShellParser().catch(() => undefined); // a command's approval tries again
        void setupLoad.then(
          (setup) => recheckSandbox(setup.sandboxAvailability),
          () => undefined,
        );
      },
    },
    options.emit,
  );
  const mcpAutoApprove = createMcpAutoApprove(mcpHub);
  // A server's `autoApprove` allows its tools; otherwise the permission rules decide.
  const policy: ApprovalPolicy = (tool, input, calledName) => {
    if (toolCategory(tool) === "mcp" && calledName && mcpAutoApprove(calledName, input))
      return { type: "allow" };
    return permissions(tool, input, calledName);
  };
  const masker = createSecretMasker([...envFileSecrets(workspace.root), ...environmentSecrets(process.env)]);
  const registry = new BackgroundRegistry();
  const browserPath = findBrowser();
  const browser = browserPath
    ? createBrowserActionTool({ workspace, executablePath: browserPath })
    : undefined;
  const codingTools = [
    ...createCodingTools({
      workspace,
      commandTimeoutSeconds: options.commandTimeoutSeconds,
      skills,
      registry,
      ignore: createIgnoreRules(workspace.root),
      supportsImages: modelInfo.supportsImages,
      sandbox: setup.sandbox,
    }),
    ...(browser ? [browser] : []),
  ];
  let notice = (_text: string) => {};
  const runSubagent = createSubagentRunner({
    parentTaskId: taskId,
    taskDir,
    model,
    tools: codingTools,
    workspaceRoot: workspace.root,
    shell,
    policy,
    notice: (text) => notice(text),
  });
  const prepared = prepareToolOffer({
    tools: [...codingTools, createUseSubagentsTool({ run: runSubagent })],
    skills: skills.map((skill) => skill.name),
    promptSections: [rulesSection(rules), skillsSection(skills)],
    wireFormat: model.config.wireFormat,
    model: model.config.model,
    preferredVariant: modelInfo.promptVariant,
    workspaceRoot: workspace.root,
    shell,
    mode: options.mode ?? "act",
    modeCanChange: options.interactive,
    toolProtocol: options.toolProtocol,
    compact: options.compact,
    focusChain: options.focusChain,
    yolo: options.yolo,
    browserAvailable: browser !== undefined,
    agents: discoverAgents(home, workspace.root),
    runSubagent,
    supportsImages: modelInfo.supportsImages,
    mcpHub,
    contextWindow: modelInfo.contextWindow,
  });
  let say = (_payload: Say) => {};
  const checkpoints = openSessionCheckpoints({
    home,
    workspace: workspace.root,
    taskId,
    say: (payload) => say(payload),
    enabled: options.checkpoints ?? true,
  });
  startBaseline = () => checkpoints.start();
  const task = createTask({
    taskId,
    model,
    // Secrets in tool output are masked before they are shown, journaled or sent.
    tools: prepared.tools.map((tool) => withSecretMasking(tool, masker)),
    toolOffer: prepared.offer,
    // Read per request: it gains the instructions of MCP servers as they connect.
    get systemPrompt() {
      return prepared.systemPrompt;
    },
    policy,
    hooks: createExecutableHookRunner({
      dirs: trustedHookDirs(home, workspace.root),
      workspace: workspace.root,
    }),
    allowedInPlanMode: (tool, input) =>
      tool.category === "command" &&
      checkReadOnlyLine(String((input as { command?: unknown }).command), workspace.root).readOnly,
    emit: taskEmit,
    journal,
    interactive: options.interactive,
    mode: options.mode,
    focusChain: options.focusChain,
    condenseTool: createCondenseTool(),
    beforeMutation: checkpoints.beforeMutation,
    onStep: checkpoints.afterStep,
    resume: loaded && {
      entries: loaded.entries,
      nextEntryNumber: loaded.nextEntryNumber,
      nextParent: loaded.nextParent,
      ui: loaded.ui,
      turns: loaded.turns,
      usage: loaded.usage,
      taskText: loaded.meta.task,
    },
    retry: options.retry,
    streamIdleTimeoutMs: options.streamIdleTimeoutMs,
    limits: options.limits,
    modelInfo,
    planModelInfo: planModel
      ? lookupModel(planModel.config.provider, planModel.config.model).info
      : undefined,
    prices: modelInfo.prices,
    planModel,
    planPrices: planModel
      ? lookupModel(planModel.config.provider, planModel.config.model).info.prices
      : undefined,
  });
  notice = (text) => task.ui.say({ say: "notice", text });
  say = (payload) => task.ui.say(payload);
  for (const warning of prepared.warnings) task.ui.say({ say: "notice", text: warning });
  if (keepSwitched && !options.model)
    task.ui.say({
      say: "notice",
      text: `Continuing with ${switched.model}, the model this task was switched to.`,
    });
  if (!options.mcpHub) {
    const hub = mcpHub as RunningMcpHub;
    for (const problem of hub.problems)
      task.ui.say({ say: "notice", text: `MCP (${problem.source}): ${problem.message}` });
    for (const server of hub.listServers().filter((s) => s.status === "untrusted")) {
      task.ui.say({
        say: "notice",
        text: `MCP server ${server.name} not started: ${server.error ?? "not trusted yet"}`,
      });
    }
  }
  // How commands run is said once when it is news: a sandbox mode the person chose, or no sandbox here.
  if (setup.announceSandbox) task.ui.say({ say: "notice", text: setup.sandboxNote });
  if (setup.settings.yolo) {
    task.ui.say({
      say: "notice",
      text: "YOLO: every tool call runs without asking, edits to protected paths included; only deny rules still stop calls.",
    });
  }
  if (setup.trust?.decision === "unknown") {
    task.ui.say({
      say: "notice",
      text: `This project's settings add hooks, MCP servers or allow rules; they are not used until you trust the project (bowline permissions trust).`,
    });
  }
  for (const entry of ignored) {
    task.ui.say({
      say: "notice",
      text: `Project approval setting ignored (a project cannot loosen yours): ${entry}`,
    });
  }
  /** Keeps an "approve always" rule for this workspace: in force now, and in later sessions. */
  const remember = (text: string) => {
    try {
      const rule = rememberRule(home, workspace.root, text);
      setup.policyOptions.rules = [...setup.policyOptions.rules, rule];
      task.ui.say({ say: "notice", text: `Remembered for this workspace: allow ${formatRule(rule)}.` });
    } catch (error) {
      task.ui.say({ say: "notice", text: `Not remembered: ${(error as Error).message}` });
    }
  };
  const sessionCommands: SessionCommandContext = {
    home,
    workspaceRoot: workspace.root,
    taskId,
    env: process.env,
    sandboxNote: setup.sandboxNote,
    rules: () => setup.policyOptions.rules,
    modelConfig: () => actModelConfig,
    async switchModel(config) {
      const client = await clientFor(config);
      task.setModel(client, lookupModel(config.provider, config.model).info);
      actModelConfig = config;
    },
    contextReport: () => task.contextReport(),
    emit: options.emit,
  };
  async function startOrResume(text: string, images: ImageAttachment[]): Promise<TaskOutcome> {
    const attached = imageBlocks(images, modelInfo.supportsImages);
    if (loaded) {
      return task.resume(text || undefined, [
        { type: "text", text: await resumeNote(loaded, workspace.root) },
        ...attached,
      ]);
    }
    writeFileSync(
      join(taskDir, "task.json"),
      `${JSON.stringify({ v: 1, id: taskId, workspace: workspace.root, task: text, provider: model.config.provider, model: model.config.model, createdAt: new Date().toISOString() }, null, 2)}\n`,
      { mode: 0o600 },
    );
    const details = await detailsLoad;
    return task.start(text, [...attached, { type: "text", text: details }]);
  }

  /** The task's run while it works: closing the session stops it and waits for its last records. */
  let running: Promise<unknown> | undefined;
  return {
    task,
    taskDir,
    journalBytesWritten: () => journal.bytesWritten(),
    async run(text, images = []) {
      const run = startOrResume(text, images);
      running = run;
      try {
        const outcome = await run;
        // The baseline's announcement belongs before the outcome a host prints last.
        await checkpoints.beforeMutation();
        return outcome;
      } finally {
        if (running === run) running = undefined;
      }
    },
    dispatch(command) {
      switch (command.type) {
        case "answer":
          if (command.remember && command.response === "approve") remember(command.remember);
          task.answer(command.askId, { response: command.response, text: command.text });
          break;
        case "abort":
          task.abort();
          break;
        case "set_mode":
          task.setMode(command.mode);
          break;
        case "send_message":
          void task.send(command.text, imageBlocks(command.images ?? [], modelInfo.supportsImages));
          break;
        case "list_checkpoints":
        case "diff_checkpoints":
        case "restore_checkpoint":
          void checkpoints.command(command, options.emit, (id) => task.rewindToCheckpoint(id));
          break;
        case "set_model":
        case "get_context":
        case "list_tasks":
        case "list_rules":
          void answerSessionCommand(command, sessionCommands);
          break;
        case "list_mcp_servers":
        case "get_mcp_prompt":
          void answerMcpCommand(mcpHub, command, options.emit);
          break;
        case "start_task":
          throw new Error("start_task: this session already has a task; create a new session.");
      }
    },
    async close() {
      if (running) {
        task.abort();
        await running.catch(() => undefined);
      }
      await registry.disposeAll();
      await browser?.dispose();
      await checkpoints.close();
      // A hub the host passed in outlives the task (its servers stay warm).
      if (!options.mcpHub && "close" in mcpHub) await (mcpHub as RunningMcpHub).close();
      await journal.close();
    },
  };
}

/**
 * The person's images as content for the model; for a model that takes none, a note saying
 * they were left out (so it does not answer as if it had seen them).
 */
function imageBlocks(images: readonly ImageAttachment[], supportsImages: boolean): ContentBlock[] {
  if (images.length === 0) return [];
  if (!supportsImages) {
    return [
      {
        type: "text",
        text: `(The person attached ${images.length} image(s); this model does not take images, so they were left out.)`,
      },
    ];
  }
  return images.map((image) => ({ type: "image", mediaType: image.mediaType, data: image.data }));
}
