import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { writeJsonFile } from "./trust.js";

/**
 * OAuth for remote servers that ask for it (MCP authorization: discovery, dynamic client
 * registration, authorization code with PKCE, refresh). The person signs in once with
 * `bowline mcp login <server>`; the client registration and tokens are kept in
 * `~/.bowline/mcp-oauth/<server>.json` (mode 0600, in a 0700 folder) and sent by the hub's
 * connections, which refresh them when they expire. A connection never starts a sign-in: a
 * server that needs one fails with a message saying which command to run.
 */

/** What is stored for one server; a sign-in to another URL under the same name starts afresh. */
interface StoredAuth {
  v: 1;
  url: string;
  /** The redirect URL the client was registered with (its callback at the last sign-in). */
  redirectUrl?: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
}

export function oauthDir(home: string): string {
  return join(home, "mcp-oauth");
}

export function oauthFile(home: string, server: string): string {
  return join(oauthDir(home), `${server}.json`);
}

/** Forgets a server's sign-in. Returns whether there was one. */
export function forgetSignIn(home: string, server: string): boolean {
  const file = oauthFile(home, server);
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}

export interface OAuthProviderOptions {
  home: string;
  server: string;
  url: string;
  /** A sign-in under way: where the browser comes back to, and how to send the person to sign in. */
  signIn?: { redirectUrl: string; state: string; open(authorizationUrl: URL): void | Promise<void> };
}

/** The message of a connection that needs the person to sign in first. */
function signInNeeded(server: string): string {
  return `needs you to sign in: run \`bowline mcp login ${server}\``;
}

/**
 * The SDK's OAuth client provider for one server, backed by its file. Without `signIn` (the
 * hub's connections) it only uses and refreshes what a sign-in stored: with nothing stored it
 * refuses before registering a client, and a flow that would need the browser fails with
 * signInNeeded. Tokens are never logged.
 */
export function createOAuthProvider(options: OAuthProviderOptions): OAuthClientProvider {
  const { signIn } = options;
  const file = oauthFile(options.home, options.server);
  const read = () => readStored(file, options.url);
  const update = (change: (stored: StoredAuth) => void) => {
    const stored = read();
    change(stored);
    mkdirSync(oauthDir(options.home), { recursive: true, mode: 0o700 });
    writeJsonFile(file, stored);
  };
  const needed = () => new Error(signInNeeded(options.server));
  // Always set (without one the SDK would try a non-interactive grant): outside a sign-in, the
  // URL registered at the last one (refreshes do not use it).
  const redirectUrl = () =>
    signIn?.redirectUrl ?? read().redirectUrl ?? "http://127.0.0.1/bowline-oauth-callback";
  return {
    get redirectUrl() {
      return redirectUrl();
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: "Bowline",
        redirect_uris: [redirectUrl()],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      };
    },
    ...(signIn ? { state: () => signIn.state } : {}),
    clientInformation() {
      const stored = read();
      if (!signIn && !stored.tokens) throw needed();
      return stored.client;
    },
    saveClientInformation(client) {
      update((stored) => {
        stored.client = client;
        stored.redirectUrl = redirectUrl();
      });
    },
    tokens: () => read().tokens,
    saveTokens(tokens) {
      update((stored) => {
        stored.tokens = tokens;
      });
    },
    async redirectToAuthorization(authorizationUrl) {
      if (!signIn) throw needed();
      await signIn.open(authorizationUrl);
    },
    saveCodeVerifier(codeVerifier) {
      update((stored) => {
        stored.codeVerifier = codeVerifier;
      });
    },
    codeVerifier() {
      const verifier = read().codeVerifier;
      if (!verifier) throw new Error("no sign-in is under way");
      return verifier;
    },
    invalidateCredentials(scope) {
      update((stored) => {
        if (scope === "all" || scope === "client") delete stored.client;
        if (scope === "all" || scope === "tokens") delete stored.tokens;
        if (scope === "all" || scope === "verifier") delete stored.codeVerifier;
      });
    },
  };
}

function readStored(file: string, url: string): StoredAuth {
  if (existsSync(file)) {
    try {
      const json = JSON.parse(readFileSync(file, "utf8")) as StoredAuth;
      if (json.v === 1 && json.url === url) return json;
    } catch {
      // An unreadable file holds no sign-in; the next one rewrites it.
    }
  }
  return { v: 1, url };
}
