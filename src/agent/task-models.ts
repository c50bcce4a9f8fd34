/**
 * Which model a task's requests go to: the act-mode model, or in plan mode the plan model when
 * the task has one. The act-mode model can be switched while the task runs; the switch is
 * journaled, so a resumed task can go on with the same model.
 */
import type { ModelClient, ModelInfo, ModelPrices } from "../llm/types.js";
import type { SessionJournal } from "./journal.js";
import type { TaskMode } from "./task-mode.js";

/** What the context manager assumes of a model the catalogue does not know. */
export const DEFAULT_MODEL_WINDOW = { contextWindow: 128_000, maxOutputTokens: 8192 };

export type ModelWindow = Pick<ModelInfo, "contextWindow" | "maxOutputTokens">;

/** A model with what the task needs to know of it. */
export interface TaskModel {
  client: ModelClient;
  /** Its context window and output limit (the context manager's budget). */
  window: ModelWindow;
  /** Its prices, to report costs; undefined when unknown. */
  prices?: ModelPrices;
}

export interface TaskModelsOptions {
  model: ModelClient;
  modelInfo?: ModelWindow;
  prices?: ModelPrices;
  planModel?: ModelClient;
  planModelInfo?: ModelWindow;
  planPrices?: ModelPrices;
  journal?: SessionJournal;
}

export function createTaskModels(options: TaskModelsOptions, mode: () => TaskMode) {
  let act: TaskModel = {
    client: options.model,
    window: options.modelInfo ?? DEFAULT_MODEL_WINDOW,
    prices: options.prices,
  };
  const plan: TaskModel | undefined = options.planModel && {
    client: options.planModel,
    window: options.planModelInfo ?? DEFAULT_MODEL_WINDOW,
    prices: options.planPrices,
  };
  return {
    /** The model the next request goes to, in the current mode. */
    current: (): TaskModel => (mode() === "plan" && plan ? plan : act),
    /** Switches the act-mode model (from the next request on) and journals the switch. */
    setActModel(client: ModelClient, info: ModelInfo): void {
      act = { client, window: info, prices: info.prices };
      options.journal?.appendApi({
        v: 2,
        type: "model",
        ts: Date.now(),
        provider: client.config.provider,
        model: client.config.model,
      });
    },
  };
}

export type TaskModels = ReturnType<typeof createTaskModels>;
