export { blockedMessage, checkNotIgnored, commandMentionsIgnored, shellWords } from "./access.js";
export type { GitignoreMatcher } from "./gitignore-matcher.js";
export { compileGitignore } from "./gitignore-matcher.js";
export {
  createIgnoreRules,
  IGNORE_FILE_NAMES,
  type IgnoreRules,
  type IgnoreRulesOptions,
  ignoreSourceLabel,
} from "./ignore-rules.js";
