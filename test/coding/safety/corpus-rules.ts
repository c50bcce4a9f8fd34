import { analyzeCommand } from "../../../src/coding/safety/command-check.js";
import { type CommandVerdict, decideCommandLine } from "../../../src/coding/safety/command-verdict.js";
import { createPathContext } from "../../../src/coding/safety/paths.js";
import { parsePermissions } from "../../../src/coding/safety/permission-settings.js";

/**
 * The rule set the attack corpus runs against: the dangerous commands are denied, a few
 * everyday ones allowed (including interpreters, whose inline code must still ask).
 */
export const CORPUS_PERMISSIONS = {
  deny: [
    "execute_command(rm)",
    "execute_command(git push)",
    "execute_command(git checkout)",
    "execute_command(git reset --hard)",
    "execute_command(curl)",
    "execute_command(wget)",
    "execute_command(chmod)",
    "execute_command(dd)",
    "execute_command(npm publish)",
    "edit(.env)",
    "edit(secrets/**)",
  ],
  allow: [
    "execute_command(npm test)",
    "execute_command(npm run build)",
    "execute_command(git status)",
    "execute_command(python3)",
    "execute_command(node)",
    "execute_command(make)",
    "execute_command(touch allowed-marker)",
  ],
};

export const CORPUS_RULES = parsePermissions(CORPUS_PERMISSIONS, "corpus settings");

/** The verdict on `line` in a workspace at `root` under the corpus rules and the default settings. */
export function corpusVerdict(line: string, root = "/work/project"): CommandVerdict {
  return decideCommandLine(analyzeCommand(line), {
    rules: CORPUS_RULES,
    paths: createPathContext(root),
    readOnlyAllowed: true,
    allCommands: false,
    readOutside: false,
    editInside: false,
  });
}
