/**
 * The hosts sandboxed commands may reach through the sandbox's proxy (`sandbox.allowedHosts`):
 * `host` allows ports 80 and 443, `host:port` that port only, and `*.domain` (with or without a
 * port) every name below the domain, not the domain itself.
 */

export interface AllowedHost {
  /** Lowercase name without a leading `*.`. */
  name: string;
  /** Names below `name` match, `name` itself does not. */
  subdomains: boolean;
  /** Undefined: 80 and 443. */
  port?: number;
}

export class AllowedHostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AllowedHostError";
  }
}

const DEFAULT_PORTS = [80, 443];
const NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/** Parses one entry; throws `AllowedHostError` saying what is wrong with it. */
export function parseAllowedHost(entry: string): AllowedHost {
  const text = entry.trim().toLowerCase();
  const match = /^(\*\.)?([^:*/\s]+)(?::(\d{1,5}))?$/.exec(text);
  const port = match?.[3] === undefined ? undefined : Number(match[3]);
  if (!match || !NAME.test(match[2]!) || (port !== undefined && (port < 1 || port > 65535))) {
    throw new AllowedHostError(
      `sandbox.allowedHosts: "${entry}" is not a host name, "*.domain" or either with ":port" (e.g. "registry.npmjs.org", "*.githubusercontent.com", "example.com:8443")`,
    );
  }
  return { name: match[2]!, subdomains: match[1] !== undefined, ...(port !== undefined ? { port } : {}) };
}

/** Whether a connection to `host:port` is allowed by `allowed`. */
export function hostAllowed(allowed: readonly AllowedHost[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return allowed.some((entry) => {
    const nameMatches = entry.subdomains ? name.endsWith(`.${entry.name}`) : name === entry.name;
    return nameMatches && (entry.port === undefined ? DEFAULT_PORTS.includes(port) : entry.port === port);
  });
}

/** The entry as written in settings (`*.domain:port`). */
export function formatAllowedHost(host: AllowedHost): string {
  return `${host.subdomains ? "*." : ""}${host.name}${host.port === undefined ? "" : `:${host.port}`}`;
}
