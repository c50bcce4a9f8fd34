import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { childProcess } from "../process/child-process.js";
import { type AllowedHost, formatAllowedHost } from "./allowed-hosts.js";
import type { Refusal } from "./host-proxy.js";
import type { SharedNetwork, SharedNetworkOptions } from "./sandbox-network.js";
import { probeCacheFile, probeKey, readCachedProbe, writeCachedProbe } from "./sandbox-probe-cache.js";

/** How commands are confined when the sandbox is on. */
export interface CommandSandbox {
  /** workspace-write: the workspace and temp directories are writable; read-only: only temp. */
  mode: "workspace-write" | "read-only";
  /** The network is reachable (otherwise only a private loopback exists). */
  network: boolean;
  workspaceRoot: string;
  /** More writable directories (absolute or `~/`). */
  writable?: readonly string[];
  /** More paths hidden from commands besides the usual credential stores (e.g. `~/.bowline`). */
  hidden?: readonly string[];
  /** The home directory whose credential stores are hidden. Default: the user's. */
  home?: string;
  /** The bwrap binary. Default: `bwrap` from PATH. */
  bwrapPath?: string;
  /**
   * Without network, commands share one private localhost (sandbox-network.ts): a server one
   * command starts is reachable from the next. Otherwise each command has its own.
   */
  sharedLoopback?: boolean;
  /**
   * Without network, the hosts commands may still reach, through a proxy their HTTP(S)_PROXY
   * variables name (needs the shared localhost).
   */
  allowedHosts?: readonly AllowedHost[];
}

export type SandboxAvailability = (
  | { available: true; bwrapPath: string }
  | { available: false; reason: string }
) & {
  /** The answer of an earlier start, remembered on disk: this process has not probed. */
  remembered?: boolean;
};

/** Credential stores under the home directory that commands never see. */
const HIDDEN_IN_HOME = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".config/gcloud",
  ".azure",
  ".kube",
  ".docker/config.json",
  ".config/gh",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  ".password-store",
  ".local/share/keyrings",
  ".vault-token",
];

/** Protected workspace paths that stay read-only inside the sandbox (hooks would run outside it). */
const READ_ONLY_IN_WORKSPACE = [".bowline"];

/** The same inside a git directory (the workspace's `.git`, or one outside it). */
const READ_ONLY_IN_GIT_DIR = ["hooks", "config", "config.worktree"];

export interface SandboxProbeOptions {
  /** Default: this process's platform. */
  platform?: NodeJS.Platform;
  /** Where to look for bwrap, as in PATH. Default: PATH. */
  searchPath?: string;
}

let probe: Promise<SandboxAvailability> | undefined;
let rechecked = false;

/**
 * Whether bubblewrap can confine commands here: runs `true` in a sandbox set up exactly as
 * commands' are (user namespaces can be disabled, or a container can deny mounts). Cached per
 * process without options, and remembered on disk between starts (sandbox-probe-cache.ts; the
 * remembered answer is checked again by `recheckSandbox`). Never rejects.
 */
export function detectSandbox(options?: SandboxProbeOptions): Promise<SandboxAvailability> {
  if (options) return probeBwrap(options);
  if (probe) return probe;
  const bwrapPath = process.platform === "linux" ? findProgram("bwrap", process.env.PATH ?? "") : undefined;
  const key = bwrapPath ? probeKey(bwrapPath) : undefined;
  const file = probeCacheFile();
  const remembered = key ? readCachedProbe(file, key) : undefined;
  probe = remembered ? Promise.resolve({ ...remembered, remembered: true }) : probeAndRemember(file, key);
  return probe;
}

/**
 * Probes again, once per process, when `availability` was remembered rather than probed, so the
 * next start gets a fresh answer (called once the first model request is out, when spawning no
 * longer delays it). The state lives in the answer, not in this module: the CLI's entry and its
 * run bundle each hold a copy of it.
 */
export function recheckSandbox(availability: SandboxAvailability): void {
  if (!availability.remembered || rechecked) return;
  rechecked = true;
  const bwrapPath = findProgram("bwrap", process.env.PATH ?? "");
  void probeAndRemember(probeCacheFile(), bwrapPath ? probeKey(bwrapPath) : undefined);
}

async function probeAndRemember(file: string, key: string | undefined): Promise<SandboxAvailability> {
  const result = await probeBwrap({});
  if (key) writeCachedProbe(file, key, result);
  return result;
}

async function probeBwrap(options: SandboxProbeOptions): Promise<SandboxAvailability> {
  const platform = options.platform ?? process.platform;
  if (platform !== "linux") {
    return { available: false, reason: `there is no OS sandbox for ${platform} yet` };
  }
  const bwrapPath = findProgram("bwrap", options.searchPath ?? process.env.PATH ?? "");
  if (!bwrapPath) return { available: false, reason: "bubblewrap (bwrap) is not installed" };
  const { args } = sandboxLauncher({
    mode: "workspace-write",
    network: false,
    workspaceRoot: os.tmpdir(),
    bwrapPath,
  });
  return new Promise((resolve) => {
    childProcess().execFile(bwrapPath, [...args, "true"], { timeout: 5000 }, (error, _stdout, stderr) => {
      if (!error) resolve({ available: true, bwrapPath });
      else resolve({ available: false, reason: `bwrap cannot run here (${stderr.trim() || error.message})` });
    });
  });
}

export function findProgram(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * The program and arguments that run `<shell> -c <command>` inside the sandbox. The command stays
 * in the process group it was started in (no --new-session): stopping and input-wait detection
 * work on that group, and it has no terminal that --new-session would guard (stdin is closed and
 * the group is a session of its own without a controlling terminal). In its own PID namespace,
 * everything it starts ends with it. With `network` (a sandbox without network), it enters that
 * shared network namespace first instead of getting one of its own.
 */
export function sandboxLauncher(
  sandbox: CommandSandbox,
  network?: SharedNetwork,
): { command: string; args: string[] } {
  const home = sandbox.home ?? os.homedir();
  const args = [
    "--die-with-parent",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
  ];
  const shared = sandbox.network ? undefined : network;
  if (!sandbox.network && !shared) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const dir of new Set(["/tmp", "/var/tmp", os.tmpdir()]))
    if (isDirectory(dir)) args.push("--bind", dir, dir);
  const root = sandbox.workspaceRoot;
  if (sandbox.mode === "workspace-write") {
    const gitDirs = gitDirsOutside(root);
    // A worktree's own git directory lies inside the common one: bind only the outermost.
    const outermost = gitDirs.filter(
      (dir) => !gitDirs.some((other) => other !== dir && isWithin(dir, other)),
    );
    for (const dir of [root, ...outermost]) args.push("--bind", dir, dir);
    for (const abs of readOnlyInWorkspace(root, gitDirs)) args.push("--ro-bind", abs, abs);
  } else {
    // The workspace may lie inside a temp directory bound writable above.
    args.push("--ro-bind", root, root);
  }
  for (const dir of sandbox.writable ?? []) {
    const abs = dir.startsWith("~/") ? path.join(home, dir.slice(2)) : path.resolve(dir);
    if (isDirectory(abs)) args.push("--bind", abs, abs);
  }
  const hidden = [...HIDDEN_IN_HOME.map((entry) => path.join(home, entry)), ...(sandbox.hidden ?? [])];
  // Hiding a directory that holds the workspace would hide the workspace.
  for (const abs of hidden.filter((entry) => !isWithin(root, entry))) {
    if (isDirectory(abs)) args.push("--tmpfs", abs);
    else if (fs.existsSync(abs)) args.push("--ro-bind", "/dev/null", abs);
  }
  if (shared?.proxy) args.push(...proxyEnv(shared.proxy.port));
  args.push("--chdir", root, "--");
  const bwrap = sandbox.bwrapPath ?? findProgram("bwrap", process.env.PATH ?? "") ?? "bwrap";
  if (!shared) return { command: bwrap, args };
  // nsenter execs bwrap in the same process: stopping and waiting work as without it.
  const enter = ["--target", String(shared.pid), "--user", "--net", "--preserve-credentials", "--"];
  return { command: shared.nsenterPath, args: [...enter, bwrap, ...args] };
}

/**
 * bwrap arguments pointing commands' HTTP clients at the proxy's relay: curl, git, npm, pip, Go
 * and others read these variables (Node's own fetch does only from Node 24, with
 * NODE_USE_ENV_PROXY). Servers on the shared localhost are reached directly.
 */
function proxyEnv(port: number): string[] {
  const url = `http://127.0.0.1:${port}`;
  const noProxy = "localhost,127.0.0.1,::1";
  const variables: Array<[string, string]> = [
    ["HTTP_PROXY", url],
    ["HTTPS_PROXY", url],
    ["ALL_PROXY", url],
    ["NO_PROXY", noProxy],
    ["NODE_USE_ENV_PROXY", "1"],
  ];
  return variables.flatMap(([name, value]) => [
    "--setenv",
    name,
    value,
    ...(name === "NODE_USE_ENV_PROXY" ? [] : ["--setenv", name.toLowerCase(), value]),
  ]);
}

/** True when `inner` is `outer` or lies inside it. */
function isWithin(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * The git directories of the repository holding the workspace when they lie outside it (the
 * workspace is a subfolder of the repository, or a worktree), so that git can commit there too.
 */
function gitDirsOutside(root: string): string[] {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    if (isDirectory(dotGit)) return dir === root ? [] : [dotGit];
    const gitDir = readGitLink(dotGit);
    if (gitDir !== undefined) {
      const common = readGitLink(path.join(gitDir, "commondir"), "") ?? gitDir;
      return [...new Set([gitDir, common])].filter((abs) => isDirectory(abs) && !isWithin(abs, root));
    }
    if (path.dirname(dir) === dir) return [];
  }
}

/**
 * The directory a `.git` file (`gitdir: <path>`) or a `commondir` file (`<path>`) names, resolved
 * against the file's directory; undefined when there is no such file.
 */
function readGitLink(file: string, prefix = "gitdir: "): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
  if (!text.startsWith(prefix)) return undefined;
  return path.resolve(path.dirname(file), text.slice(prefix.length));
}

/**
 * Paths under the workspace, and in a repository's git directories outside it, that stay
 * read-only: what git runs (hooks, and config that names programs) would run outside the sandbox.
 */
function readOnlyInWorkspace(root: string, gitDirsOutside: readonly string[]): string[] {
  const gitDirs = [path.join(root, ".git"), ...gitDirsOutside];
  const candidates = [
    ...READ_ONLY_IN_WORKSPACE.map((entry) => path.join(root, entry)),
    ...gitDirs.flatMap((dir) => READ_ONLY_IN_GIT_DIR.map((entry) => path.join(dir, entry))),
  ];
  return [...new Set(candidates)].filter((abs) => fs.existsSync(abs));
}

function isDirectory(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** Environment variables that hold credentials; commands in the sandbox do not get them. */
const SECRET_VARIABLE =
  /(_API_KEY|_APIKEY|_SECRET|_SECRET_KEY|_TOKEN|_PASSWORD|_ACCESS_KEY|_CREDENTIALS|_PAT)$/i;

/** `env` without credentials, for a sandboxed command. */
export function sandboxEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_VARIABLE.test(name)));
}

const FAILURE_SIGNS: Array<[RegExp, (sandbox: CommandSandbox) => string]> = [
  [/^bwrap: .*/m, () => "the sandbox itself could not start the command"],
  [
    /Read-only file system|EROFS/,
    (sandbox) =>
      sandbox.mode === "read-only"
        ? "it tried to write a file, and the sandbox is read-only (only temp directories are writable)"
        : "it tried to write outside the workspace and temp directories (or to .git/hooks, .git/config or .bowline), which the sandbox keeps read-only",
  ],
  [
    /Network is unreachable|ENETUNREACH|Could not resolve host|EAI_AGAIN|ENOTFOUND|Temporary failure in name resolution|Name or service not known|getaddrinfo|Connection refused|ECONNREFUSED/i,
    (sandbox) =>
      sandbox.network
        ? ""
        : sandbox.allowedHosts
          ? "it needs the network, which the sandbox turns off (only servers started by sandboxed commands, on localhost, and the hosts of sandbox.allowedHosts through HTTPS_PROXY are reachable)"
          : sandbox.sharedLoopback
            ? "it needs the network, which the sandbox turns off (only servers started by sandboxed commands, on localhost, are reachable)"
            : "it needs the network, which the sandbox turns off (each command has a private localhost of its own, so a server started by another command is out of reach too)",
  ],
];

/**
 * Why a failed sandboxed command probably failed because of the sandbox, from its output; or
 * undefined when nothing points at the sandbox.
 */
export function diagnoseSandboxFailure(
  sandbox: CommandSandbox,
  output: string,
  refused: readonly Refusal[] = [],
): string | undefined {
  if (refused.length > 0) return `it tried to reach ${refusedList(refused)}, and the sandbox's proxy refused`;
  for (const [pattern, explain] of FAILURE_SIGNS) {
    if (pattern.test(output)) {
      const why = explain(sandbox);
      if (why) return why;
    }
  }
  const home = sandbox.home ?? os.homedir();
  const hidden = HIDDEN_IN_HOME.find(
    (entry) => output.includes(path.join(home, entry)) || output.includes(`~/${entry}`),
  );
  return hidden ? `it tried to use ~/${hidden}, which the sandbox hides` : undefined;
}

/** How commands run, for the model (part of execute_command's description). */
export function describeSandbox(sandbox: CommandSandbox): string {
  const writable =
    sandbox.mode === "workspace-write" ? "the workspace and temp directories" : "only temp directories";
  const hosts = sandbox.allowedHosts ?? [];
  const reachable =
    hosts.length > 0
      ? `; only these hosts are reachable, through the HTTP(S) proxy that HTTPS_PROXY and HTTP_PROXY name (tools that ignore those variables reach nothing): ${hosts.map(formatAllowedHost).join(", ")}`
      : "";
  const network = sandbox.network
    ? ""
    : sandbox.sharedLoopback
      ? `, without network access (commands share a private localhost: a server one command starts is reachable from the next, but not from outside the sandbox${reachable})`
      : ", without network access (each command has a private localhost of its own: a server started by one command cannot be reached from another)";
  return `Commands run in a sandbox: ${writable} are writable, the rest is read-only${network}; credentials (~/.ssh, ~/.aws, API keys in the environment) are hidden.`;
}

/** Appended to the result of a command that succeeded although the proxy refused some hosts. */
export function refusedHostsMessage(refused: readonly Refusal[]): string {
  return `[Sandbox] The sandbox's proxy refused ${refusedList(refused)}. If the command needs them, the user can add them to sandbox.allowedHosts, or call execute_command again with unsandboxed: true; the user will be asked to approve it.`;
}

/** `host:port (why)`, each once. */
function refusedList(refused: readonly Refusal[]): string {
  return [...new Set(refused.map((refusal) => `${refusal.host}:${refusal.port} (${refusal.reason})`))].join(
    ", ",
  );
}

/** How a sandbox reaches its shared network (the allowlist keys the namespace). */
export function networkOptions(sandbox: CommandSandbox): SharedNetworkOptions {
  return sandbox.allowedHosts ? { allowedHosts: sandbox.allowedHosts } : {};
}

/** Appended to the result of a command the sandbox seems to have stopped. */
export function sandboxFailureMessage(why: string): string {
  return `[Sandbox] This looks like a failure caused by the sandbox: ${why}. If the command must run outside the sandbox, call execute_command again with unsandboxed: true; the user will be asked to approve it.`;
}
