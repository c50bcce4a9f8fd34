import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { MCP_NAME_SEPARATOR } from "../../agent/pipeline/tool-names.js";

/**
 * One entry of `mcpServers`, the shape Claude Desktop, Cline and others use: `command`/`args`/
 * `env`/`cwd` for a local (stdio) server, `url`/`headers` for a remote one (`type` "sse" or
 * "streamableHttp"; "http" is accepted for the latter). `autoApprove` lists tools that run
 * without asking (`"*"`: all of the server's). `timeout` is seconds per call (default 60).
 */
const serverSchema = z.object({
  type: z.optional(z.enum(["stdio", "sse", "streamableHttp", "http"])),
  /** Cline's older spelling of `type`. */
  transportType: z.optional(z.enum(["stdio", "sse", "streamableHttp", "http"])),
  command: z.optional(z.string().check(z.minLength(1))),
  args: z.optional(z.array(z.string())),
  cwd: z.optional(z.string()),
  env: z.optional(z.record(z.string(), z.string())),
  url: z.optional(z.string()),
  headers: z.optional(z.record(z.string(), z.string())),
  disabled: z.optional(z.boolean()),
  autoApprove: z.optional(z.array(z.string())),
  timeout: z.optional(z.number().check(z.gte(1))),
});

export type McpServerEntry = z.infer<typeof serverSchema>;

export const LAZY_SCHEMA_MODES = ["auto", "on", "off"] as const;
export type LazySchemaMode = (typeof LAZY_SCHEMA_MODES)[number];

export type McpTransportConfig =
  | { type: "stdio"; command: string; args: string[]; cwd?: string; env: Record<string, string> }
  | { type: "sse" | "streamableHttp"; url: string; headers: Record<string, string> };

/** A server ready to start: values resolved, defaults applied. */
export interface McpServerConfig {
  name: string;
  scope: "user" | "project";
  /** The file it was read from. */
  source: string;
  transport: McpTransportConfig;
  disabled: boolean;
  autoApprove: readonly string[];
  timeoutMs: number;
  /** The definition as written (before `${VAR}` resolution): what project trust is keyed on. */
  entry: McpServerEntry;
}

/** A server or file that could not be used, with the reason for the person. */
export interface McpConfigProblem {
  source: string;
  server?: string;
  message: string;
}

export interface McpConfig {
  servers: McpServerConfig[];
  problems: McpConfigProblem[];
  lazySchemas: LazySchemaMode;
}

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export function userMcpFile(home: string): string {
  return join(home, "mcp.json");
}

export function projectMcpFile(workspaceRoot: string): string {
  return join(workspaceRoot, ".bowline", "mcp.json");
}

/**
 * Reads the user's and the project's `mcp.json`. A bad file or entry becomes a problem naming
 * the file, server and field; the rest still load. A project server named like one of the
 * user's is ignored (a project cannot replace a server the person set up). Never throws.
 */
export function loadMcpConfig(
  home: string,
  workspaceRoot: string,
  env: Record<string, string | undefined>,
): McpConfig {
  const user = readMcpFile(userMcpFile(home), "user", env);
  const project = readMcpFile(projectMcpFile(workspaceRoot), "project", env);
  const taken = new Set([...user.servers.map((s) => s.name), ...user.invalid]);
  const problems = [...user.problems, ...project.problems];
  const servers = [...user.servers];
  for (const server of project.servers) {
    if (taken.has(server.name)) {
      problems.push({
        source: server.source,
        server: server.name,
        message: `ignored: your own configuration has a server named "${server.name}".`,
      });
    } else servers.push(server);
  }
  return { servers, problems, lazySchemas: user.lazySchemas ?? project.lazySchemas ?? "auto" };
}

interface ParsedFile {
  servers: McpServerConfig[];
  /** Names of entries that failed validation (they still reserve their name). */
  invalid: string[];
  problems: McpConfigProblem[];
  lazySchemas?: LazySchemaMode;
}

/** The raw JSON of an mcp.json, or undefined when the file does not exist. Throws on bad JSON. */
export function readMcpJson(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  const json: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new Error("the file must hold a JSON object with an mcpServers object");
  }
  return json as Record<string, unknown>;
}

function readMcpFile(
  file: string,
  scope: McpServerConfig["scope"],
  env: Record<string, string | undefined>,
): ParsedFile {
  const result: ParsedFile = { servers: [], invalid: [], problems: [] };
  let json: Record<string, unknown> | undefined;
  try {
    json = readMcpJson(file);
  } catch (error) {
    result.problems.push({ source: file, message: `cannot be read: ${(error as Error).message}` });
    return result;
  }
  if (!json) return result;
  const lazy = json.lazySchemas;
  if (lazy !== undefined) {
    if (LAZY_SCHEMA_MODES.includes(lazy as LazySchemaMode)) result.lazySchemas = lazy as LazySchemaMode;
    else result.problems.push({ source: file, message: `lazySchemas must be "auto", "on" or "off".` });
  }
  const servers = json.mcpServers ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    result.problems.push({ source: file, message: "mcpServers must be an object of servers by name." });
    return result;
  }
  for (const [name, raw] of Object.entries(servers)) {
    const parsed = parseServer(name, raw, scope, file, env);
    if ("message" in parsed) {
      result.invalid.push(name);
      result.problems.push({ source: file, server: name, message: parsed.message });
    } else result.servers.push(parsed);
  }
  return result;
}

/** One entry, validated and resolved; or what is wrong with it (naming the field). */
export function parseServer(
  name: string,
  raw: unknown,
  scope: McpServerConfig["scope"],
  source: string,
  env: Record<string, string | undefined>,
): McpServerConfig | { message: string } {
  if (!/^[A-Za-z0-9_.-]+$/.test(name) || name.includes(MCP_NAME_SEPARATOR)) {
    return { message: `the name must use letters, digits, "_", "-" or "." (and not contain "__mcp__").` };
  }
  const parsed = z.safeParse(serverSchema, raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.join(".") : "(the entry)";
    return { message: `field ${field}: ${issue.message}` };
  }
  const entry = parsed.data;
  try {
    return {
      name,
      scope,
      source,
      transport: transportOf(entry, env),
      disabled: entry.disabled ?? false,
      autoApprove: entry.autoApprove ?? [],
      timeoutMs: (entry.timeout ?? DEFAULT_CALL_TIMEOUT_MS / 1000) * 1000,
      entry,
    };
  } catch (error) {
    return { message: (error as Error).message };
  }
}

function transportOf(entry: McpServerEntry, env: Record<string, string | undefined>): McpTransportConfig {
  const declared = entry.type ?? entry.transportType;
  if (!declared && !entry.command && !entry.url) {
    throw new Error("field command: needs a command (a local server) or a url (a remote one).");
  }
  const type = declared === "http" ? "streamableHttp" : (declared ?? (entry.command ? "stdio" : "sse"));
  const resolve = (value: string, field: string) => resolveVariables(value, field, env);
  const resolveAll = (values: Record<string, string> | undefined, field: string) =>
    Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, resolve(v, `${field}.${k}`)]));
  if (type === "stdio") {
    if (!entry.command) throw new Error(`field command: a stdio server needs a command.`);
    return {
      type,
      command: resolve(entry.command, "command"),
      args: (entry.args ?? []).map((arg, i) => resolve(arg, `args.${i}`)),
      ...(entry.cwd !== undefined ? { cwd: resolve(entry.cwd, "cwd") } : {}),
      env: resolveAll(entry.env, "env"),
    };
  }
  if (!entry.url) throw new Error(`field url: a ${type} server needs a url.`);
  const url = resolve(entry.url, "url");
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new Error(`field url: "${url}" is not an http(s) URL.`);
  }
  return { type, url, headers: resolveAll(entry.headers, "headers") };
}

/** `${VAR}` and `${VAR:-default}` from `env`; an unset variable without default is an error naming the field. */
export function resolveVariables(
  value: string,
  field: string,
  env: Record<string, string | undefined>,
): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, name: string, fallback?: string) => {
      const found = env[name];
      if (found !== undefined && found !== "") return found;
      if (fallback !== undefined) return fallback;
      throw new Error(`field ${field}: the environment variable ${name} is not set.`);
    },
  );
}
