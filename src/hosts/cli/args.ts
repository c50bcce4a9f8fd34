import { parseArgs } from "node:util";

export type OutputFormat = "text" | "json" | "stream-json";

export interface CliArgs {
  command: "run" | "demo" | "models" | "help" | "version";
  print: boolean;
  prompt: string | undefined;
  outputFormat: OutputFormat;
  provider?: string;
  model?: string;
  baseUrl?: string;
  yes: boolean;
  allow: string[];
  cwd: string;
  verbose: boolean;
  commandTimeoutSeconds?: number;
  mode: "plan" | "act";
  /** Forces native tool calling or the XML text protocol; default: what the model's variant uses. */
  toolProtocol?: "native" | "xml";
  /** The short prompt and tool set for small local models (XML protocol). */
  compact: boolean;
  /** The model keeps a task_progress checklist. */
  focusChain: boolean;
  /** Save the exact provider traffic of the session to this file. */
  record?: string;
  /** Play a recorded session's provider traffic instead of using the network. */
  replay?: string;
  /** Retries of a failed model request (default 4). */
  maxRetries?: number;
  /** Seconds a model stream may stay silent before it is abandoned and retried (default 300). */
  streamIdleTimeoutSeconds?: number;
  /** Continue the last task of this workspace. */
  continueLast: boolean;
  /** Continue a stored task: its id, or "" to pick one from a list. */
  resume?: string;
  /** Start a new task from a stored one's history (up to `forkAt`, default its end). */
  fork?: string;
  forkAt?: string;
  /** Budgets: the task pauses (interactive) or stops (print mode) when one is reached. */
  maxTurns?: number;
  budgetTokens?: number;
  budgetUsd?: number;
  /** `bowline models --check`: probe each configured provider. */
  check: boolean;
  /** Interactive runs on a terminal use the line-mode host instead of the terminal UI. */
  noTui: boolean;
}

export class UsageError extends Error {
  readonly code = "usage";
}

export const HELP = `Bowline: an autonomous coding agent.

Usage:
  bowline -p "task"            run a task to completion and print the result (print mode)
  echo "task" | bowline -p     the same, reading the task from stdin
  bowline ["task"]             the interactive terminal UI: the task (or type it), progress,
                               approvals with diffs, slash commands (/help); line mode when
                               stdin or stdout is not a terminal, or with --no-tui
  bowline demo                 watch a scripted session fix a bug (no API key needed)
  bowline models [--check]     list the providers, which are configured, and the model selected;
                               --check asks each configured provider whether it answers (local
                               servers: which models they have)

Model:
  --provider <name>            anthropic | openai | openai-responses | gemini | bedrock |
                               openrouter | deepseek | xai | mistral | groq | together |
                               fireworks | cerebras | ollama | lmstudio | vllm, or any other
                               name with --base-url (an OpenAI-compatible server)
  --model <id>                 model id, e.g. claude-sonnet-4-5, gpt-5, gemini-2.5-pro, qwen2.5-coder
  --base-url <url>             API base URL, overriding the provider's (a proxy, a local server)
  Keys: each provider's variable, e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY,
        OPENROUTER_API_KEY (bowline models lists them); Bedrock uses your AWS credentials
        and AWS_REGION. Without --provider, the first provider whose key is set is used.
  Environment: BOWLINE_PROVIDER, BOWLINE_MODEL, ANTHROPIC_BASE_URL, OPENAI_BASE_URL
  Settings: ~/.bowline/settings.json, overridden by <workspace>/.bowline/settings.json:
    {"provider": "openrouter", "model": "anthropic/claude-sonnet-4.5",
     "keys": {"openrouter": "<key>"}, "planModel": "openai/gpt-5",
     "maxOutputTokens": 16000, "reasoning": {"budgetTokens": 8000}}
    also baseUrl, apiKey, actModel, region. Flags beat the environment, which beats settings.
    A file holding a key should be private: chmod 600 <file>.

Print mode:
  -p, --print                  non-interactive; exit code 0 on completion, 1 on failure
  --output-format <fmt>        text (default) | json | stream-json (one event per line)
  -y, --yes                    approve every tool call
  --allow <rules>              allow tools without --yes, e.g. --allow write_to_file,replace_in_file
                               or --allow "execute_command(npm test)" (command prefix)
  --verbose                    print progress to stderr in text mode

Other:
  -C, --cwd <dir>              workspace (default: current directory)
  --command-timeout <seconds>  default timeout of execute_command (default 120)
  --mode plan|act              start in plan mode (explore and propose; no edits) or act mode (default)
  --tool-protocol native|xml   force native tool calling or the XML text protocol (for models
                               whose native tool calling is poor)
  --compact                    a short prompt and the essential tools, for small local models
  --focus-chain                the model keeps a checklist of the task's steps (task_progress),
                               shown as it changes; completion waits until it is done
  --max-retries <n>            retries of a failed model request, with back-off (default 4)
  --stream-idle-timeout <s>    abandon and retry a model stream silent this long (default 300)
  -c, --continue               continue the last task of this workspace (with -p and no message:
                               finish an interrupted task)
  --resume [id]                continue a stored task (without an id: pick one from a list)
  --fork <id> [--at <entry>]   a new task from a stored one's conversation (up to an entry)
  bowline history              this workspace's tasks (--all, --json; delete ID; export ID)
  bowline permissions          explain "<command line>" [--json] | trust | distrust
  bowline mcp                  list | add | remove | enable | disable | trust | test MCP servers
                               (~/.bowline/mcp.json and the project's .bowline/mcp.json)
  bowline checkpoints          list [--task ID] [--json] | diff A [B] [--json] |
                               restore ID --mode files|task|both [--force]
  --max-turns <n>              stop (print mode) or ask (interactive) after n model requests
  --budget-tokens <n>          the same at n tokens (input + output; cache reads count a tenth)
  --budget-usd <dollars>       the same at a cost, for models with known prices
  --record <file>              save the session's exact provider traffic (keys removed) to a file
  --replay <file>              replay a recorded session without network (no key needed); fails
                               with the first request that differs from the recording
  -v, --version                print the version
  -h, --help                   print this help

Sessions are stored in ~/.bowline/tasks/<id>/, user settings in ~/.bowline/settings.json
(set BOWLINE_HOME to move both).`;

export function parseCliArgs(argv: readonly string[], cwd: string): CliArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(withOptionalResumeId(argv));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun bowline --help for usage.`);
  }
  const { values, positionals } = parsed;
  const format = values["output-format"] ?? "text";
  if (format !== "text" && format !== "json" && format !== "stream-json") {
    throw new UsageError(`--output-format must be text, json or stream-json (got "${format}").`);
  }
  let timeout: number | undefined;
  if (values["command-timeout"] !== undefined) {
    timeout = Number(values["command-timeout"]);
    if (!Number.isFinite(timeout) || timeout <= 0)
      throw new UsageError("--command-timeout must be a positive number of seconds.");
  }
  const maxRetries = optionalNumber(values["max-retries"], "--max-retries", { integer: true, min: 0 });
  const idle = optionalNumber(values["stream-idle-timeout"], "--stream-idle-timeout", { min: 0.001 });
  const maxTurns = optionalNumber(values["max-turns"], "--max-turns", { integer: true, min: 1 });
  const budgetTokens = optionalNumber(values["budget-tokens"], "--budget-tokens", { integer: true, min: 1 });
  const budgetUsd = optionalNumber(values["budget-usd"], "--budget-usd", { min: 0.0001 });
  const continuing = [values.continue, values.resume !== undefined, values.fork !== undefined].filter(
    Boolean,
  );
  if (continuing.length > 1) throw new UsageError("Use one of --continue, --resume and --fork.");
  if (values.at !== undefined && values.fork === undefined) throw new UsageError("--at goes with --fork.");
  if (values.record !== undefined && values.replay !== undefined) {
    throw new UsageError("--record and --replay cannot be used together.");
  }
  const mode = values.mode ?? "act";
  if (mode !== "plan" && mode !== "act") throw new UsageError(`--mode must be plan or act (got "${mode}").`);
  const toolProtocol = values["tool-protocol"];
  if (toolProtocol !== undefined && toolProtocol !== "native" && toolProtocol !== "xml") {
    throw new UsageError(`--tool-protocol must be native or xml (got "${toolProtocol}").`);
  }
  let command: CliArgs["command"] = "run";
  let rest = positionals;
  if (values.help) command = "help";
  else if (values.version) command = "version";
  else if (positionals[0] === "demo" || positionals[0] === "models") {
    command = positionals[0];
    rest = positionals.slice(1);
  }
  return {
    command,
    print: values.print ?? false,
    prompt: rest.length > 0 ? rest.join(" ") : undefined,
    outputFormat: format,
    provider: values.provider,
    model: values.model,
    baseUrl: values["base-url"],
    yes: values.yes ?? false,
    allow: values.allow ?? [],
    cwd: values.cwd ?? cwd,
    verbose: values.verbose ?? false,
    commandTimeoutSeconds: timeout,
    mode,
    toolProtocol,
    compact: values.compact ?? false,
    focusChain: values["focus-chain"] ?? false,
    check: values.check ?? false,
    noTui: values["no-tui"] ?? false,
    record: values.record,
    replay: values.replay,
    maxRetries,
    streamIdleTimeoutSeconds: idle,
    maxTurns,
    budgetTokens,
    budgetUsd,
    continueLast: values.continue ?? false,
    resume: values.resume,
    fork: values.fork,
    forkAt: values.at,
  };
}

/** `--resume` may stand alone (pick from a list): give it an empty value for the parser. */
function withOptionalResumeId(argv: readonly string[]): string[] {
  const args = [...argv];
  const at = args.indexOf("--resume");
  if (at >= 0 && (at === args.length - 1 || args[at + 1]!.startsWith("-"))) args.splice(at + 1, 0, "");
  return args;
}

function optionalNumber(
  text: string | undefined,
  flag: string,
  rule: { integer?: boolean; min: number },
): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < rule.min || (rule.integer && !Number.isInteger(value))) {
    const kind = rule.integer ? "a whole number" : "a number";
    throw new UsageError(`${flag} must be ${kind} of at least ${rule.min} (got "${text}").`);
  }
  return value;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      print: { type: "boolean", short: "p" },
      "output-format": { type: "string" },
      provider: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      yes: { type: "boolean", short: "y" },
      allow: { type: "string", multiple: true },
      cwd: { type: "string", short: "C" },
      verbose: { type: "boolean" },
      "command-timeout": { type: "string" },
      mode: { type: "string" },
      "tool-protocol": { type: "string" },
      compact: { type: "boolean" },
      "focus-chain": { type: "boolean" },
      check: { type: "boolean" },
      "no-tui": { type: "boolean" },
      record: { type: "string" },
      replay: { type: "string" },
      "max-retries": { type: "string" },
      "stream-idle-timeout": { type: "string" },
      "max-turns": { type: "string" },
      continue: { type: "boolean", short: "c" },
      resume: { type: "string" },
      fork: { type: "string" },
      at: { type: "string" },
      "budget-tokens": { type: "string" },
      "budget-usd": { type: "string" },
      version: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
  });
}
