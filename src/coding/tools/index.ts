import { existsSync } from "node:fs";
import type { ToolHandler } from "../../agent/tool.js";
import type { IgnoreRules } from "../ignore/index.js";
import type { Skill } from "../instructions/skills.js";
import type { BackgroundRegistry } from "../process/background-registry.js";
import type { CommandSandbox } from "../safety/sandbox.js";
import type { Workspace } from "../workspace.js";
import { createActModeRespondTool } from "./act-mode-respond.js";
import { createApplyPatchTool } from "./apply-patch.js";
import { createAskFollowupQuestionTool } from "./ask-followup-question.js";
import { createAttemptCompletionTool } from "./attempt-completion.js";
import { createCommandOutputTool } from "./command-output.js";
import { createExecuteCommandTool } from "./execute-command.js";
import { guardIgnored } from "./ignore-guard.js";
import { createListCodeDefinitionNamesTool } from "./list-code-definition-names.js";
import { createListFilesTool } from "./list-files.js";
import { createNestedRules } from "./nested-rules.js";
import { createNewTaskTool } from "./new-task.js";
import { createPlanModeRespondTool } from "./plan-mode-respond.js";
import { createReadFileTool } from "./read-file.js";
import { createReplaceInFileTool } from "./replace-in-file.js";
import { createSearchFilesTool } from "./search-files.js";
import { createUseSkillTool } from "./use-skill.js";
import { createWebFetchTool } from "./web-fetch.js";
import { createWriteToFileTool } from "./write-to-file.js";

export interface CodingToolsOptions {
  workspace: Workspace;
  /** Default timeout of execute_command, in seconds. */
  commandTimeoutSeconds?: number;
  /** Skills the model may load with use_skill (offered only when there are some). */
  skills?: readonly Skill[];
  /** Commands left running in the background (without one, `background: true` is refused). */
  registry?: BackgroundRegistry;
  /** `.bowlineignore` / `.clineignore` rules: blocked paths are refused or marked. */
  ignore?: IgnoreRules;
  /** The model takes images: read_file returns image files as images. */
  supportsImages?: boolean;
  /** Commands run in this sandbox (bubblewrap) when set. */
  sandbox?: CommandSandbox;
}

/** The built-in coding tools, in the order they are offered to the model. */
export function createCodingTools(options: CodingToolsOptions): ToolHandler[] {
  const { workspace, ignore } = options;
  const tools: ToolHandler[] = [
    createReadFileTool({ workspace, supportsImages: options.supportsImages }),
    createWriteToFileTool({ workspace }),
    createReplaceInFileTool({ workspace }),
    createApplyPatchTool({ workspace }),
    createListFilesTool({ workspace, ignore }),
    createSearchFilesTool({ workspace, ignore }),
    createListCodeDefinitionNamesTool({ workspace, ignore }),
    createExecuteCommandTool({
      workspace,
      shell: userShell(),
      defaultTimeoutSeconds: options.commandTimeoutSeconds,
      registry: options.registry,
      sandbox: options.sandbox,
    }),
    ...(options.registry ? [createCommandOutputTool({ registry: options.registry })] : []),
    createWebFetchTool(),
    createAskFollowupQuestionTool(),
    createAttemptCompletionTool(),
    createPlanModeRespondTool(),
    createActModeRespondTool(),
    createNewTaskTool(),
    createUseSkillTool({ skills: options.skills ?? [] }),
  ];
  const withNestedRules = createNestedRules(workspace);
  return tools.map((tool) => withNestedRules(ignore ? guardIgnored(tool, ignore, workspace) : tool));
}

/**
 * The user's shell when it speaks POSIX sh (bash, zsh, dash, sh), so commands run as they would
 * in their terminal; otherwise (fish, nushell, none set) the default bash.
 */
function userShell(): string | undefined {
  const shell = process.env.SHELL;
  return shell && /\/(bash|zsh|dash|sh)$/.test(shell) && existsSync(shell) ? shell : undefined;
}
