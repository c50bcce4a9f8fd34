/**
 * `bowline mcp`: the MCP servers of `~/.bowline/mcp.json` and the project's `.bowline/mcp.json`.
 */
import { parseArgs } from "node:util";
import {
  loadMcpConfig,
  type McpServerConfig,
  type McpServerEntry,
  parseServer,
} from "../../coding/mcp/config.js";
import { editEntries, type McpScope, mcpFileOf, scopesDefining } from "../../coding/mcp/config-edit.js";
import { createMcpHub } from "../../coding/mcp/mcp-hub.js";
import { forgetSignIn, oauthFile } from "../../coding/mcp/oauth.js";
import { signInToServer } from "../../coding/mcp/oauth-login.js";
import { isTrusted, trustServer } from "../../coding/mcp/trust.js";
import { childProcess } from "../../coding/process/child-process.js";
import { bowlineHome } from "../../coding/session/paths.js";

const USAGE = `Usage:
  bowline mcp list [--json]
  bowline mcp add NAME [--project] [--env K=V]... [--timeout S] [--auto-approve TOOL]... -- COMMAND [ARGS...]
  bowline mcp add NAME [--project] [--transport http|sse] [--header "K: V"]... URL
  bowline mcp remove NAME [--user|--project]
  bowline mcp enable NAME | disable NAME
  bowline mcp trust NAME          trust a project server's current definition
  bowline mcp test NAME           start it, list what it offers, stop it
  bowline mcp login NAME          sign in to a remote server that asks for it (OAuth)
  bowline mcp logout NAME         forget that sign-in`;

export interface McpCommandOptions {
  out?(text: string): void;
  err?(text: string): void;
  /** Sends the person to a sign-in page; default: print the address and open a browser. */
  openUrl?(url: string): void | Promise<void>;
}

class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

interface Context {
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
  out(text: string): void;
  openUrl(url: string): void | Promise<void>;
}

/** Runs `bowline mcp <argv...>` in `cwd`. Exit codes: 0 done, 1 a server test failed, 2 usage or config errors. */
export async function runMcpCommand(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  options: McpCommandOptions = {},
): Promise<number> {
  const out = options.out ?? ((text: string) => process.stdout.write(`${text}\n`));
  const err = options.err ?? ((text: string) => process.stderr.write(`${text}\n`));
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        project: { type: "boolean", default: false },
        user: { type: "boolean", default: false },
        transport: { type: "string" },
        env: { type: "string", multiple: true, default: [] },
        header: { type: "string", multiple: true, default: [] },
        timeout: { type: "string" },
        "auto-approve": { type: "string", multiple: true, default: [] },
      },
    });
    const ctx: Context = {
      home: bowlineHome(env),
      cwd,
      env,
      out,
      openUrl: options.openUrl ?? ((url) => openInBrowser(url, out)),
    };
    const [action = "list", name, ...rest] = positionals;
    if (action === "list") return list(ctx, values.json);
    if (!name) throw new CommandError(`${action} needs a server name.\n${USAGE}`);
    switch (action) {
      case "add": {
        const scope: McpScope = values.project ? "project" : "user";
        const entry = newEntry(rest, values);
        const checked = parseServer(name, entry, scope, mcpFileOf(scope, ctx.home, cwd), {});
        if ("message" in checked && !/environment variable/.test(checked.message)) {
          throw new CommandError(`Server "${name}": ${checked.message}`);
        }
        editEntries(mcpFileOf(scope, ctx.home, cwd), scope, (servers) => {
          servers[name] = entry;
        });
        // Adding a project server is trusting it: the person wrote the definition.
        if (scope === "project") trustServer(ctx.home, cwd, { name, entry });
        out(`Added ${name} to ${mcpFileOf(scope, ctx.home, cwd)}.`);
        return 0;
      }
      case "remove": {
        const scope = pickScope(ctx, name, values);
        editEntries(mcpFileOf(scope, ctx.home, cwd), scope, (servers) => {
          delete servers[name];
        });
        out(`Removed ${name} from ${mcpFileOf(scope, ctx.home, cwd)}.`);
        return 0;
      }
      case "enable":
      case "disable": {
        const scope = pickScope(ctx, name, values);
        editEntries(mcpFileOf(scope, ctx.home, cwd), scope, (servers) => {
          const { disabled: _old, ...entry } = servers[name]!;
          servers[name] = action === "disable" ? { ...entry, disabled: true } : entry;
        });
        out(`${action === "disable" ? "Disabled" : "Enabled"} ${name}.`);
        return 0;
      }
      case "trust": {
        const server = configured(ctx, name);
        if (server.scope === "user") out(`${name} is one of your own servers: it needs no trust.`);
        else {
          trustServer(ctx.home, cwd, server);
          out(`Trusted the project server ${name} as currently defined in ${server.source}.`);
        }
        return 0;
      }
      case "test":
        return await test(ctx, configured(ctx, name), values.timeout);
      case "login":
        return await login(ctx, configured(ctx, name));
      case "logout":
        out(
          forgetSignIn(ctx.home, name)
            ? `Signed out of ${name}: its tokens are deleted.`
            : `You are not signed in to ${name}.`,
        );
        return 0;
      default:
        throw new CommandError(`Unknown mcp command: ${action}.\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof CommandError) {
      err(`bowline mcp: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      err(`bowline mcp: ${error.message} (put a server's command after --).\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

function list(ctx: Context, json: boolean): number {
  const config = loadMcpConfig(ctx.home, ctx.cwd, ctx.env);
  const rows = config.servers.map((server) => ({
    name: server.name,
    scope: server.scope,
    type: server.transport.type,
    target:
      server.transport.type === "stdio"
        ? [server.transport.command, ...server.transport.args].join(" ")
        : server.transport.url,
    status: server.disabled ? "disabled" : isTrusted(ctx.home, ctx.cwd, server) ? "enabled" : "untrusted",
  }));
  if (json) {
    ctx.out(JSON.stringify({ servers: rows, problems: config.problems }, null, 2));
    return 0;
  }
  if (rows.length === 0 && config.problems.length === 0) ctx.out("No MCP servers configured.");
  for (const row of rows) {
    const hint = row.status === "untrusted" ? ` (run: bowline mcp trust ${row.name})` : "";
    ctx.out(`${row.name}  ${row.scope}  ${row.type}  ${row.target}  ${row.status}${hint}`);
  }
  for (const problem of config.problems) {
    ctx.out(
      `problem: ${problem.source}: ${problem.server ? `server "${problem.server}": ` : ""}${problem.message}`,
    );
  }
  return 0;
}

async function test(ctx: Context, server: McpServerConfig, timeout: string | undefined): Promise<number> {
  if (!isTrusted(ctx.home, ctx.cwd, server)) {
    throw new CommandError(
      `${server.name} is a project server you have not trusted: bowline mcp trust ${server.name}`,
      1,
    );
  }
  const connectTimeoutMs = timeout ? Number(timeout) * 1000 : 30_000;
  const hub = createMcpHub({
    config: { servers: [{ ...server, disabled: false }], problems: [], lazySchemas: "off" },
    cwd: ctx.cwd,
    home: ctx.home,
    connectTimeoutMs,
    restart: { maxAttempts: 0 },
  });
  const started = Date.now();
  hub.start();
  await hub.whenSettled();
  const info = hub.listServers()[0]!;
  await hub.close();
  if (info.status !== "connected") {
    ctx.out(`${server.name}: ${info.status}: ${info.error ?? "unknown error"}`);
    return 1;
  }
  ctx.out(
    `${server.name}: connected in ${Date.now() - started} ms: ${info.tools.length} tools, ${info.resources?.length ?? 0} resources, ${info.prompts?.length ?? 0} prompts.`,
  );
  for (const tool of info.tools)
    ctx.out(`  tool ${tool.name}${tool.description ? `: ${tool.description.split("\n")[0]}` : ""}`);
  for (const resource of info.resources ?? []) ctx.out(`  resource ${resource.uri}`);
  for (const prompt of info.prompts ?? []) ctx.out(`  prompt ${prompt.name}`);
  return 0;
}

async function login(ctx: Context, server: McpServerConfig): Promise<number> {
  if (server.transport.type === "stdio") {
    throw new CommandError(`${server.name} is a local server: only remote servers sign in.`);
  }
  try {
    const result = await signInToServer({
      home: ctx.home,
      server,
      open: (url) => ctx.openUrl(url.href),
    });
    ctx.out(
      result === "signed-in"
        ? `Signed in to ${server.name}. Its tokens are kept in ${oauthFile(ctx.home, server.name)} (readable by you only).`
        : `${server.name} did not ask for authorization: there is nothing to sign in to.`,
    );
    return 0;
  } catch (error) {
    throw new CommandError(`signing in to ${server.name} failed: ${(error as Error).message}`, 1);
  }
}

/** Prints the sign-in address and opens it in a browser when there is one (the address stays the way in). */
function openInBrowser(url: string, out: (text: string) => void): void {
  out(`Sign in with your browser: ${url}`);
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : ["xdg-open", url];
  const child = childProcess().spawn(command!, args, { stdio: "ignore", detached: true });
  child.on("error", () => out("(No browser could be opened: open the address above yourself.)"));
  child.unref();
}

/** A configured server by name, or a usage error saying what is wrong with it. */
function configured(ctx: Context, name: string): McpServerConfig {
  const config = loadMcpConfig(ctx.home, ctx.cwd, ctx.env);
  const server = config.servers.find((candidate) => candidate.name === name);
  if (server) return server;
  const problem = config.problems.find((candidate) => candidate.server === name);
  throw new CommandError(problem ? `${problem.source}: ${problem.message}` : `No MCP server named ${name}.`);
}

function pickScope(ctx: Context, name: string, values: { user?: boolean; project?: boolean }): McpScope {
  const scopes = scopesDefining(name, ctx.home, ctx.cwd);
  const wanted = values.project ? "project" : values.user ? "user" : undefined;
  if (wanted) {
    if (!scopes.includes(wanted)) throw new CommandError(`No ${wanted} MCP server named ${name}.`);
    return wanted;
  }
  if (scopes.length === 0) throw new CommandError(`No MCP server named ${name}.`);
  if (scopes.length > 1)
    throw new CommandError(`${name} is defined for you and for the project: add --user or --project.`);
  return scopes[0]!;
}

function newEntry(
  rest: string[],
  values: { transport?: string; env: string[]; header: string[]; timeout?: string; "auto-approve": string[] },
): McpServerEntry {
  if (rest.length === 0) throw new CommandError(`add needs a command (after --) or a URL.\n${USAGE}`);
  const common: McpServerEntry = {
    ...(values.timeout ? { timeout: Number(values.timeout) } : {}),
    ...(values["auto-approve"].length > 0 ? { autoApprove: values["auto-approve"] } : {}),
  };
  const remote = /^https?:\/\//.test(rest[0]!) && rest.length === 1;
  if (remote) {
    const type = values.transport === "sse" ? "sse" : "streamableHttp";
    const headers = pairs(values.header, ":", "--header");
    return { type, url: rest[0], ...(Object.keys(headers).length ? { headers } : {}), ...common };
  }
  const env = pairs(values.env, "=", "--env");
  const [command, ...args] = rest;
  return {
    command,
    ...(args.length ? { args } : {}),
    ...(Object.keys(env).length ? { env } : {}),
    ...common,
  };
}

function pairs(items: readonly string[], separator: string, flag: string): Record<string, string> {
  return Object.fromEntries(
    items.map((item) => {
      const at = item.indexOf(separator);
      if (at <= 0) throw new CommandError(`${flag} takes NAME${separator}VALUE, not "${item}".`);
      return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
    }),
  );
}
