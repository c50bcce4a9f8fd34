/**
 * The person's answer to "trust this project?": its allow rules and hooks (project trust) and
 * its MCP servers (trusted one definition at a time) count from then on, until they change.
 */
import { loadMcpConfig } from "./mcp/config.js";
import { trustServer } from "./mcp/trust.js";
import {
  projectTrustSubject,
  readProjectTrust,
  recordProjectTrust,
  type TrustSubject,
  trustQuestion,
} from "./safety/project-trust.js";

/** The question to ask, when the project adds hooks, MCP servers or allow rules nobody has judged yet. */
export function pendingTrustQuestion(
  home: string,
  workspaceRoot: string,
): { subject: TrustSubject; question: string } | undefined {
  const subject = projectTrustSubject(workspaceRoot);
  if (!subject || readProjectTrust(home, subject) !== "unknown") return undefined;
  return { subject, question: trustQuestion(subject) };
}

/** Records the answer; trusting also trusts the project's MCP servers as they are defined now. */
export function decideProjectTrust(
  home: string,
  subject: TrustSubject,
  trusted: boolean,
  env: Record<string, string | undefined>,
): void {
  recordProjectTrust(home, subject, trusted);
  if (!trusted) return;
  for (const server of loadMcpConfig(home, subject.workspaceRoot, env).servers)
    if (server.scope === "project") trustServer(home, subject.workspaceRoot, server);
}
