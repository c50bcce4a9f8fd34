/**
 * Generated MCP tools shaped like a real server's (a hosted-git or tracker server): verb_noun
 * names, a two-sentence description and 3-6 described parameters. Used by the test server's
 * `--tools N`, the lazy-schema scenario and bench/mcp.ts, so their sizes are comparable.
 */
export interface CatalogTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

const NOUNS = [
  ["issue", "an issue in a repository's tracker"],
  ["pull_request", "a pull request proposing changes between two branches"],
  ["branch", "a branch of a repository"],
  ["release", "a published release with its notes and assets"],
  ["workflow_run", "a run of a CI workflow"],
  ["deployment", "a deployment of a commit to an environment"],
  ["webhook", "a webhook that notifies an external URL of repository events"],
  ["label", "a label used to categorise issues and pull requests"],
  ["milestone", "a milestone grouping issues towards a due date"],
  ["comment", "a comment on an issue or pull request"],
  ["review", "a review of a pull request with its verdict"],
  ["commit_status", "a status check reported on a commit"],
  ["tag", "a git tag pointing at a commit"],
  ["repository_secret", "an encrypted secret available to workflows"],
  ["team", "a team of organisation members with shared permissions"],
  ["project_board", "a project board tracking work items in columns"],
  ["discussion", "a discussion thread in a repository's forum"],
  ["gist", "a gist holding one or more shared files"],
  ["package_version", "a version of a package in the registry"],
  ["code_scanning_alert", "an alert raised by code scanning"],
  ["dependabot_alert", "an alert about a vulnerable dependency"],
  ["environment", "a deployment environment with its protection rules"],
  ["runner", "a self-hosted runner that executes workflow jobs"],
  ["invitation", "an invitation for a user to join a repository"],
  ["ruleset", "a ruleset protecting branches or tags"],
] as const;

const VERBS = [
  ["get", "Gets", "Returns every field, including timestamps and the author."],
  ["list", "Lists", "Results are paginated; use page and per_page to walk them."],
  ["create", "Creates", "Fails when the caller lacks write access to the repository."],
  ["update", "Updates", "Only the fields given are changed; the others keep their values."],
  ["delete", "Deletes", "This cannot be undone; the caller needs admin access."],
  ["search", "Searches for", "The query uses the same qualifiers as the web search box."],
] as const;

const COMMON = {
  owner: {
    type: "string",
    description: "The account owner of the repository (user or organisation), not case sensitive.",
  },
  repo: {
    type: "string",
    description: "The name of the repository without the .git extension, not case sensitive.",
  },
};

function schemaFor(verb: string, noun: string): Record<string, unknown> {
  const id = { type: "integer", description: `The number that identifies the ${noun.replace(/_/g, " ")}.` };
  const properties: Record<string, unknown> = { ...COMMON };
  const required = ["owner", "repo"];
  if (verb === "get" || verb === "update" || verb === "delete") {
    properties[`${noun}_number`] = id;
    required.push(`${noun}_number`);
  }
  if (verb === "list" || verb === "search") {
    if (verb === "search") {
      properties.query = {
        type: "string",
        description: "Search keywords and qualifiers, e.g. is:open author:octocat.",
      };
      required.push("query");
    }
    properties.state = { type: "string", enum: ["open", "closed", "all"], description: "Filter by state." };
    properties.per_page = { type: "integer", description: "Results per page (max 100).", default: 30 };
    properties.page = { type: "integer", description: "Page number of the results to fetch.", default: 1 };
  }
  if (verb === "create" || verb === "update") {
    properties.title = { type: "string", description: `The title of the ${noun.replace(/_/g, " ")}.` };
    properties.body = { type: "string", description: "The contents, in Markdown." };
    properties.labels = {
      type: "array",
      items: { type: "string" },
      description: "Labels to associate with it.",
    };
    if (verb === "create") required.push("title");
  }
  return { type: "object", properties, required };
}

/** `count` tools (at most 150 distinct), in a stable order. */
export function catalogTools(count: number): CatalogTool[] {
  const tools: CatalogTool[] = [];
  for (const [noun, what] of NOUNS) {
    for (const [verb, verbText, detail] of VERBS) {
      if (tools.length >= count) return tools;
      tools.push({
        name: `${verb}_${noun}`,
        description: `${verbText} ${what}. ${detail}`,
        inputSchema: schemaFor(verb, noun),
      });
    }
  }
  return tools;
}
