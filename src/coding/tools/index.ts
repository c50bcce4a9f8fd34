import type { ToolHandler } from "../../agent/tool.js";
import type { Skill } from "../instructions/skills.js";
import type { Workspace } from "../workspace.js";
import { createActModeRespondTool } from "./act-mode-respond.js";
import { createAskFollowupQuestionTool } from "./ask-followup-question.js";
import { createAttemptCompletionTool } from "./attempt-completion.js";
import { createExecuteCommandTool } from "./execute-command.js";
import { createListFilesTool } from "./list-files.js";
import { createNewTaskTool } from "./new-task.js";
import { createPlanModeRespondTool } from "./plan-mode-respond.js";
import { createReadFileTool } from "./read-file.js";
import { createReplaceInFileTool } from "./replace-in-file.js";
import { createSearchFilesTool } from "./search-files.js";
import { createUseSkillTool } from "./use-skill.js";
import { createWriteToFileTool } from "./write-to-file.js";

export interface CodingToolsOptions {
  workspace: Workspace;
  /** Default timeout of execute_command, in seconds. */
  commandTimeoutSeconds?: number;
  /** Skills the model may load with use_skill (offered only when there are some). */
  skills?: readonly Skill[];
}

/** The built-in coding tools, in the order they are offered to the model. */
export function createCodingTools(options: CodingToolsOptions): ToolHandler[] {
  const { workspace } = options;
  return [
    createReadFileTool({ workspace }),
    createWriteToFileTool({ workspace }),
    createReplaceInFileTool({ workspace }),
    createListFilesTool({ workspace }),
    createSearchFilesTool({ workspace }),
    createExecuteCommandTool({ workspace, defaultTimeoutSeconds: options.commandTimeoutSeconds }),
    createAskFollowupQuestionTool(),
    createAttemptCompletionTool(),
    createPlanModeRespondTool(),
    createActModeRespondTool(),
    createNewTaskTool(),
    createUseSkillTool({ skills: options.skills ?? [] }),
  ];
}
