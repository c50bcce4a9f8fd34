import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * What a project's own settings would let run on the person's machine: allow rules, hooks and
 * MCP servers. A cloned repository could be hostile, so these count only once the person trusts
 * them; the trust is remembered for this exact content (any change asks again).
 */
export interface TrustSubject {
  workspaceRoot: string;
  /** sha256 of everything listed in `reasons`. */
  hash: string;
  /** One line per thing to trust, e.g. `2 allow rules in .bowline/approvals.json`. */
  reasons: string[];
}

export type TrustDecision = "trusted" | "distrusted" | "unknown";

/** The project's settings that need trust, or undefined when it adds none. */
export function projectTrustSubject(workspaceRoot: string): TrustSubject | undefined {
  const hash = createHash("sha256");
  const reasons: string[] = [];
  const bowline = path.join(workspaceRoot, ".bowline");
  const approvals = parseJson(readText(path.join(bowline, "approvals.json")));
  const allow = stringsAt(approvals?.permissions, "allow");
  if (allow.length > 0) {
    reasons.push(`${allow.length} allow rule(s) in .bowline/approvals.json: ${allow.join(", ")}`);
    hash.update(`allow\0${JSON.stringify(allow)}\0`);
  }
  const hosts = stringsAt(approvals?.sandbox, "allowedHosts");
  if (hosts.length > 0) {
    reasons.push(
      `${hosts.length} host(s) sandboxed commands may reach, in .bowline/approvals.json: ${hosts.join(", ")}`,
    );
    hash.update(`hosts\0${JSON.stringify(hosts)}\0`);
  }
  const hooks = filesUnder(path.join(bowline, "hooks"));
  if (hooks.length > 0) {
    reasons.push(
      `hooks in .bowline/hooks: ${hooks.map((file) => path.relative(path.join(bowline, "hooks"), file)).join(", ")}`,
    );
    for (const file of hooks) hash.update(`hook\0${path.relative(workspaceRoot, file)}\0${readText(file)}\0`);
  }
  for (const name of [".bowline/mcp.json", ".mcp.json"]) {
    const text = readText(path.join(workspaceRoot, name));
    if (text) {
      reasons.push(`MCP servers in ${name}`);
      hash.update(`mcp\0${name}\0${text}\0`);
    }
  }
  const settings = parseJson(readText(path.join(bowline, "settings.json")));
  if (settings?.mcpServers !== undefined) {
    reasons.push("MCP servers in .bowline/settings.json");
    hash.update(`mcp\0settings\0${JSON.stringify(settings.mcpServers)}\0`);
  }
  return reasons.length === 0 ? undefined : { workspaceRoot, hash: hash.digest("hex"), reasons };
}

/** `<home>/trusted-projects.json`: workspace root -> the content hash and the answer. */
export function trustStorePath(bowlineHome: string): string {
  return path.join(bowlineHome, "trusted-projects.json");
}

interface TrustEntry {
  hash: string;
  trusted: boolean;
  decidedAt: string;
}

/** The remembered answer for this exact content; `unknown` when never asked or the content changed. */
export function readProjectTrust(bowlineHome: string, subject: TrustSubject): TrustDecision {
  const entry = readStore(bowlineHome)[subject.workspaceRoot];
  if (!entry || entry.hash !== subject.hash) return "unknown";
  return entry.trusted ? "trusted" : "distrusted";
}

/** Remembers the person's answer (the store is private: mode 0600). */
export function recordProjectTrust(bowlineHome: string, subject: TrustSubject, trusted: boolean): void {
  const store = readStore(bowlineHome);
  store[subject.workspaceRoot] = { hash: subject.hash, trusted, decidedAt: new Date().toISOString() };
  const file = trustStorePath(bowlineHome);
  fs.mkdirSync(bowlineHome, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** The question to ask the person, naming what the project would add. */
export function trustQuestion(subject: TrustSubject): string {
  return [
    `This project's settings (${subject.workspaceRoot}) add:`,
    ...subject.reasons.map((reason) => `  - ${reason}`),
    "Hooks and MCP servers run programs from the project, allow rules let commands run without asking, and allowed hosts let sandboxed commands reach those hosts. Trust them? (Only trust projects you know; you are asked again if they change.)",
  ].join("\n");
}

function readStore(bowlineHome: string): Record<string, TrustEntry> {
  const parsed = parseJson(readText(trustStorePath(bowlineHome)));
  return (parsed ?? {}) as Record<string, TrustEntry>;
}

/** The strings of the array at `object[key]`, sorted. */
function stringsAt(object: unknown, key: string): string[] {
  const list =
    typeof object === "object" && object !== null ? (object as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string").sort() : [];
}

function filesUnder(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : [full];
    })
    .sort();
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function parseJson(text: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
