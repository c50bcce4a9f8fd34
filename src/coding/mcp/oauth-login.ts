import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServerConfig } from "./config.js";
import { loadMcpSdk, type McpSdk } from "./load-sdk.js";
import { createOAuthProvider, forgetSignIn } from "./oauth.js";
import type { OpenedTransport } from "./transports.js";

export interface SignInOptions {
  home: string;
  server: McpServerConfig;
  /** Sends the person to the authorization server's sign-in page (prints the URL, opens a browser). */
  open(authorizationUrl: URL): void | Promise<void>;
  /** How long the person has to sign in (default five minutes). */
  timeoutMs?: number;
  clientVersion?: string;
}

const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/**
 * `bowline mcp login`: signs in to a remote server. Any earlier sign-in is forgotten; Bowline
 * registers with the server's authorization server for a one-off callback on 127.0.0.1, sends
 * the person to sign in, exchanges the code that comes back (with PKCE, and a state checked
 * against forgery) for tokens, and checks that the server accepts them. Resolves `signed-in`,
 * or `not-needed` when the server answered without asking for authorization. Rejects with a
 * message for the person otherwise.
 */
export async function signInToServer(options: SignInOptions): Promise<"signed-in" | "not-needed"> {
  const { server } = options;
  if (server.transport.type === "stdio") {
    throw new Error(`${server.name} is a local server: only remote servers sign in.`);
  }
  const { url } = server.transport;
  const sdk = await loadMcpSdk();
  forgetSignIn(options.home, server.name);
  const state = randomBytes(16).toString("hex");
  const callback = await openCallback(state, options.timeoutMs ?? SIGN_IN_TIMEOUT_MS);
  try {
    const provider = createOAuthProvider({
      home: options.home,
      server: server.name,
      url,
      signIn: { redirectUrl: callback.url, state, open: options.open },
    });
    const transport = () => sdk.openTransport(server.transport, process.cwd(), provider);
    const first = transport();
    try {
      await connectAndClose(sdk, first, options.clientVersion);
      return "not-needed";
    } catch (error) {
      if (!(error instanceof sdk.UnauthorizedError)) throw error;
    }
    const code = await callback.code;
    await (first.transport as unknown as { finishAuth(code: string): Promise<void> }).finishAuth(code);
    await connectAndClose(sdk, transport(), options.clientVersion);
    return "signed-in";
  } finally {
    callback.close();
  }
}

async function connectAndClose(sdk: McpSdk, opened: OpenedTransport, clientVersion = "dev"): Promise<void> {
  const client = new sdk.Client({ name: "bowline", version: clientVersion });
  await client.connect(opened.transport);
  await client.close();
}

interface Callback {
  url: string;
  /** The authorization code the browser brings back; rejects on an error, a forged state or the timeout. */
  code: Promise<string>;
  close(): void;
}

/** A one-off HTTP server on 127.0.0.1 that receives the authorization server's redirect. */
async function openCallback(state: string, timeoutMs: number): Promise<Callback> {
  // Loaded on first use: a start never signs in before its first model request.
  const { createServer } = await import("node:http");
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  code.catch(() => undefined); // awaited by the caller once the browser is on its way
  const timer = setTimeout(
    () => settle?.reject(new Error(`nobody signed in within ${Math.round(timeoutMs / 1000)} s.`)),
    timeoutMs,
  );
  const http: Server = createServer((req, res) => {
    const params = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    const answer = (status: number, text: string) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(text);
    };
    if (params.get("state") !== state)
      return answer(400, "This sign-in link is not the one Bowline is waiting for.");
    const error = params.get("error");
    const received = params.get("code");
    if (error || !received) {
      const why = params.get("error_description") ?? error ?? "no authorization code came back";
      answer(400, `Sign-in failed: ${why}. You can close this tab.`);
      settle?.reject(new Error(`the sign-in failed: ${why}`));
      return;
    }
    answer(200, "Signed in. You can close this tab and return to Bowline.");
    settle?.resolve(received);
  });
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(0, "127.0.0.1", () => {
      const { port } = http.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/callback`,
        code,
        close: () => {
          clearTimeout(timer);
          http.close();
          http.closeAllConnections();
        },
      });
    });
  });
}
