/**
 * The project's own MCP server for tests and benchmarks, built on the official SDK.
 *
 *   node --import tsx test/support/mcp-test-server.ts stdio [--tools N [--offset K] [--catalog-only]] [--hang]
 *   node --import tsx test/support/mcp-test-server.ts http|sse|oauth [--port P]   (prints "listening <url>")
 *   common: [--instructions TEXT] (its initialize instructions) [--slow MS] (answers nothing for MS ms)
 *
 * Tools: echo {text}; sleep {ms} (cancellable); crash (exits with code 3 after a line on stderr);
 * image (a 1x1 PNG and a caption); embedded (an embedded text resource); fail (an isError result);
 * pid; add_tool {name} (adds an echo-like tool and announces the list change). `--tools N`
 * adds catalog entries K..K+N-1 that echo their arguments; `--catalog-only` leaves out the
 * tools above. Resources: test://greeting (text), test://pixel (PNG blob), template
 * test://notes/{id}. Prompts: review {file}; with `--dialogue` also dialogue (a user message and an
 * assistant message with an embedded resource). `--hang` never answers anything. `oauth` serves
 * streamable HTTP that needs OAuth tokens, from an authorization server on the same origin.
 */
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { catalogTools } from "./mcp-tool-catalog.js";

export const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const argv = process.argv.slice(2);
const mode = argv[0] ?? "stdio";
const flag = (name: string) => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};
const offset = Number(flag("--offset") ?? 0);
const catalog = catalogTools(offset + Number(flag("--tools") ?? 0)).slice(offset);
const added: string[] = [];
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});

const BUILTIN_TOOLS = [
  {
    name: "echo",
    description: "Echoes the text back.",
    inputSchema: object({ text: { type: "string" } }, ["text"]),
  },
  {
    name: "sleep",
    description: "Waits ms milliseconds.",
    inputSchema: object({ ms: { type: "number" } }, ["ms"]),
  },
  { name: "crash", description: "Makes the server process exit.", inputSchema: object({}) },
  { name: "image", description: "Returns a tiny PNG image.", inputSchema: object({}) },
  { name: "embedded", description: "Returns an embedded resource.", inputSchema: object({}) },
  { name: "fail", description: "Returns an error result.", inputSchema: object({}) },
  { name: "pid", description: "Returns the server's process id.", inputSchema: object({}) },
  {
    name: "add_tool",
    description: "Adds a tool.",
    inputSchema: object({ name: { type: "string" } }, ["name"]),
  },
];

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function createMcpServer(): Server {
  const server = new Server(
    { name: "bowline-test-server", version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      ...(flag("--instructions") !== undefined ? { instructions: flag("--instructions") } : {}),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...(argv.includes("--catalog-only") ? [] : BUILTIN_TOOLS),
      ...catalog,
      ...added.map((name) => ({ name, description: `Added tool ${name}.`, inputSchema: object({}) })),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    switch (request.params.name) {
      case "echo":
        return text(`echo: ${String(args.text)}`);
      case "sleep":
        await sleep(Number(args.ms), extra.signal);
        return text(`slept ${Number(args.ms)} ms`);
      case "crash":
        process.stderr.write("test server: crashing on purpose\n");
        setTimeout(() => process.exit(3), 10);
        return await new Promise<never>(() => {});
      case "image":
        return {
          content: [
            { type: "text", text: "a pixel" },
            { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
          ],
        };
      case "embedded":
        return {
          content: [
            {
              type: "resource",
              resource: { uri: "test://greeting", mimeType: "text/plain", text: "Hello!" },
            },
          ],
        };
      case "fail":
        return { ...text("the tool failed on purpose"), isError: true };
      case "pid":
        return text(String(process.pid));
      case "add_tool":
        added.push(String(args.name));
        await server.sendToolListChanged();
        return text(`added ${String(args.name)}`);
    }
    if (catalog.some((tool) => tool.name === request.params.name) || added.includes(request.params.name)) {
      return text(`${request.params.name} ran with ${JSON.stringify(args)}`);
    }
    return { ...text(`Unknown tool: ${request.params.name}`), isError: true };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      { uri: "test://greeting", name: "greeting", mimeType: "text/plain", description: "A greeting." },
      { uri: "test://pixel", name: "pixel", mimeType: "image/png" },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: "test://notes/{id}", name: "note", description: "A note by id." }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (uri === "test://greeting")
      return { contents: [{ uri, mimeType: "text/plain", text: "Hello from the test server." }] };
    if (uri === "test://pixel") return { contents: [{ uri, mimeType: "image/png", blob: PIXEL_PNG }] };
    const note = /^test:\/\/notes\/(.+)$/.exec(uri);
    if (note) return { contents: [{ uri, mimeType: "text/plain", text: `Note ${note[1]}.` }] };
    throw new Error(`No resource ${uri}`);
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      { name: "review", description: "Review a file.", arguments: [{ name: "file", required: true }] },
      ...(argv.includes("--dialogue")
        ? [{ name: "dialogue", description: "A user and an assistant message." }]
        : []),
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name === "dialogue") {
      return {
        messages: [
          { role: "user", content: { type: "text", text: "What is in the greeting?" } },
          {
            role: "assistant",
            content: {
              type: "resource",
              resource: { uri: "test://greeting", mimeType: "text/plain", text: "Hello!" },
            },
          },
        ],
      };
    }
    return {
      description: "Review a file.",
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Please review ${request.params.arguments?.file ?? "?"}.` },
        },
      ],
    };
  });
  return server;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => resolve(body ? JSON.parse(body) : undefined));
    req.on("error", reject);
  });
}

async function serveHttp(): Promise<void> {
  const streamable = createStreamableHandler();
  const sse = new Map<string, SSEServerTransport>();
  const http = createHttpServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (mode === "sse") {
      if (req.method === "GET" && url.pathname === "/sse") {
        const transport = new SSEServerTransport("/messages", res);
        sse.set(transport.sessionId, transport);
        transport.onclose = () => sse.delete(transport.sessionId);
        await createMcpServer().connect(transport);
        return;
      }
      const transport = sse.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return void res.writeHead(404).end();
      return void (await transport.handlePostMessage(req, res, await readJson(req)));
    }
    await streamable(req, res, req.method === "POST" ? await readJson(req) : undefined);
  });
  http.listen(Number(flag("--port") ?? 0), "127.0.0.1", () => {
    const { port } = http.address() as AddressInfo;
    process.stdout.write(`listening http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}\n`);
  });
}

/** Streamable HTTP sessions: a request without a session id starts one. */
function createStreamableHandler() {
  const streams = new Map<string, StreamableHTTPServerTransport>();
  return async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? streams.get(id) : undefined;
    if (!transport) {
      if (id !== undefined) return void res.writeHead(404).end();
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void streams.set(sessionId, created),
      });
      created.onclose = () => created.sessionId && streams.delete(created.sessionId);
      await createMcpServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  };
}

/**
 * `oauth` mode: streamable HTTP at /mcp behind bearer tokens, and on the same origin an OAuth
 * authorization server (the SDK's router: metadata, dynamic registration, authorize, token)
 * whose sign-in page approves at once and redirects back with a code.
 */
async function serveOAuth(): Promise<void> {
  const { createMcpExpressApp } = await import("@modelcontextprotocol/sdk/server/express.js");
  const { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } = await import(
    "@modelcontextprotocol/sdk/server/auth/router.js"
  );
  const { requireBearerAuth } = await import(
    "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js"
  );
  const { DemoInMemoryAuthProvider } = await import(
    "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js"
  );
  const http = createHttpServer();
  await new Promise<void>((resolve) => http.listen(Number(flag("--port") ?? 0), "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const mcpUrl = new URL("/mcp", origin);
  const provider = new DemoInMemoryAuthProvider();
  const app = createMcpExpressApp({ host: "127.0.0.1" });
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(origin), resourceServerUrl: mcpUrl }));
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  const streamable = createStreamableHandler();
  app.all("/mcp", bearer, (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
    void streamable(req, res, req.body);
  });
  http.on("request", app);
  process.stdout.write(`listening ${mcpUrl.href}\n`);
}

// A slow server: requests wait (buffered on stdin, or in the listen backlog) until it is up.
if (flag("--slow")) await new Promise((resolve) => setTimeout(resolve, Number(flag("--slow"))));
if (argv.includes("--hang")) {
  process.stdin.resume(); // reads requests and never answers
  process.stdin.on("end", () => process.exit(0));
} else if (mode === "stdio") {
  process.stdin.on("end", () => process.exit(0));
  await createMcpServer().connect(new StdioServerTransport());
} else if (mode === "oauth") {
  await serveOAuth();
} else {
  await serveHttp();
}
