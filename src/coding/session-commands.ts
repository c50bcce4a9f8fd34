/**
 * Answers the protocol's session commands (`set_model`, `get_context`, `list_tasks`,
 * `list_rules`) for a task session, and the "remember" part of an approval.
 */
import { lookupModel } from "../llm/catalogue.js";
import { findPreset } from "../llm/presets.js";
import type { ModelConfig } from "../llm/types.js";
import type { ContextReport, Event, SessionCommand } from "../protocol/index.js";
import { formatRule, type PermissionRule } from "./safety/permission-rules.js";
import { listTasks } from "./session/history-index.js";
import { resolveModels } from "./settings/index.js";

export interface SessionCommandContext {
  home: string;
  workspaceRoot: string;
  taskId: string;
  /** The model configuration in use for act mode. */
  modelConfig(): ModelConfig;
  /** Puts a new act model in place for the next request. */
  switchModel(config: ModelConfig): Promise<void>;
  contextReport(): ContextReport;
  /** The permission rules in force, remembered ones included. */
  rules(): readonly PermissionRule[];
  /** One line: how commands run. */
  sandboxNote: string;
  env: NodeJS.ProcessEnv;
  emit(event: Event): void;
}

export async function answerSessionCommand(
  command: SessionCommand,
  ctx: SessionCommandContext,
): Promise<void> {
  try {
    switch (command.type) {
      case "list_tasks":
        ctx.emit({ type: "tasks_listed", tasks: storedTasks(ctx) });
        break;
      case "list_rules":
        ctx.emit({
          type: "rules_listed",
          rules: ctx
            .rules()
            .map((rule) => ({ action: rule.action, rule: formatRule(rule), source: rule.source })),
          sandbox: ctx.sandboxNote,
        });
        break;
      case "get_context":
        ctx.emit({ type: "context_report", report: ctx.contextReport() });
        break;
      case "set_model": {
        const config = modelConfigFor(command.model, ctx);
        await ctx.switchModel(config);
        const known = lookupModel(config.provider, config.model);
        ctx.emit({
          type: "model_changed",
          provider: config.provider,
          model: config.model,
          contextWindow: known.info.contextWindow,
          ...(known.known
            ? {}
            : {
                note: `${config.model} is not in Bowline's model catalogue: its limits and prices are guesses.`,
              }),
        });
        break;
      }
    }
  } catch (error) {
    ctx.emit({ type: "command_failed", command: command.type, message: (error as Error).message });
  }
}

/** The workspace's stored tasks, newest first (at most 50). */
function storedTasks(ctx: SessionCommandContext) {
  return listTasks(ctx.home, { workspace: ctx.workspaceRoot })
    .slice(0, 50)
    .map((task) => ({
      id: task.id,
      title: task.title,
      updatedAt: task.updatedAt,
      turns: task.turns,
      ...(task.costUsd === undefined ? {} : { costUsd: task.costUsd }),
      ...(task.status === undefined ? {} : { status: task.status }),
      current: task.id === ctx.taskId,
    }));
}

/**
 * `model` on the session's provider (with its key and address), or `provider:model` for
 * another configured provider (`openai:gpt-5`, `ollama:qwen3:8b`); a prefix that is no
 * provider's name is part of the model id. Throws with what to fix.
 */
export function modelConfigFor(
  spec: string,
  ctx: Pick<SessionCommandContext, "modelConfig" | "env" | "workspaceRoot" | "home">,
): ModelConfig {
  const wanted = spec.trim();
  if (!wanted) throw new Error("Name a model, e.g. /model claude-sonnet-4-5 or /model openai:gpt-5.");
  const current = ctx.modelConfig();
  const colon = wanted.indexOf(":");
  const provider = colon > 0 ? wanted.slice(0, colon) : undefined;
  if (provider !== undefined && provider !== current.provider && findPreset(provider)) {
    const resolved = resolveModels({
      flags: { provider, model: wanted.slice(colon + 1) },
      env: ctx.env,
      workspaceRoot: ctx.workspaceRoot,
      home: ctx.home,
    });
    if (!resolved.ok) throw new Error(resolved.message);
    return resolved.models.act;
  }
  const model = provider === current.provider ? wanted.slice(colon + 1) : wanted;
  // The catalogue's entry for the new model, not the old one's limits and prices.
  const { modelInfo: _previous, ...rest } = current;
  return { ...rest, model };
}
