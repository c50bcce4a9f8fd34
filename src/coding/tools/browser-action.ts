import * as z from "zod/mini";
import type { ToolHandler, ToolResult } from "../../agent/tool.js";
import type { ImageBlock, TextBlock } from "../../llm/types.js";
import {
  type BrowserSession,
  BrowserSessionError,
  type BrowserSnapshot,
  createBrowserSession,
} from "../browser/browser-session.js";
import { findBrowser } from "../browser/find-browser.js";
import { resolveBrowserUrl } from "../browser/resolve-url.js";
import type { Workspace } from "../workspace.js";
import { oneLine } from "./summary.js";

const ACTIONS = ["launch", "click", "type", "scroll_down", "scroll_up", "close"] as const;

const describe = (width: number, height: number) =>
  `Drive a headless Chromium (${width}x${height}) to check web pages, e.g. the app you are building. ` +
  '"launch" opens a url (http://localhost:3000, file:///..., or an HTML file in the workspace); each action but "close" returns a screenshot, new console output and the URL. ' +
  `"click" takes "coordinate" "x,y" (0-${width - 1}, 0-${height - 1}), the element's centre in the latest screenshot; "type" types "text" into the focused element; "scroll_down"/"scroll_up" move one screen. ` +
  '"close" the browser when done.';

const schema = z.object({
  action: z
    .enum(ACTIONS)
    .check(z.describe("What to do: launch, click, type, scroll_down, scroll_up or close.")),
  url: z.optional(z.string().check(z.describe('For "launch": the URL to open.'))),
  coordinate: z.optional(
    z.string().check(z.describe('For "click": where to click, as "x,y" in viewport pixels, e.g. "450,300".')),
  ),
  text: z.optional(z.string().check(z.describe('For "type": the text to type.'))),
});

export type BrowserActionInput = z.infer<typeof schema>;

export interface BrowserActionDetails {
  action: BrowserActionInput["action"];
  /** The page URL after the action; undefined when no page is open. */
  url?: string;
  logs: string[];
  warnings: string[];
  /** Media type of the screenshot sent to the model, when one was taken. */
  screenshot?: string;
}

export interface BrowserActionOptions {
  /** For resolving a launch url given as a workspace file path. */
  workspace?: Workspace;
  /** The browser executable. Default: `findBrowser()`. */
  executablePath?: string;
  /** Default 900x600. */
  viewport?: { width: number; height: number };
  /** Default 10_000 ms. */
  navigationTimeoutMs?: number;
  /** Default: a Playwright-driven Chromium session. Tests may pass their own. */
  session?: BrowserSession;
}

/** The browser_action tool; it owns one browser, which `dispose()` closes. */
export interface BrowserActionTool extends ToolHandler<BrowserActionInput, BrowserActionDetails> {
  /** Closes the browser if it is open or starting. Never throws. Call when the task ends. */
  dispose(): Promise<void>;
}

const NOT_OPEN = 'The browser is not open. Use action "launch" with a url first.';

export function createBrowserActionTool(options: BrowserActionOptions = {}): BrowserActionTool {
  const viewport = options.viewport ?? { width: 900, height: 600 };
  let session = options.session;
  const getSession = (): BrowserSession => {
    if (session) return session;
    const executablePath = findBrowser({ executablePath: options.executablePath });
    if (!executablePath) throw new Error(NO_BROWSER);
    session = createBrowserSession({
      executablePath,
      viewport,
      navigationTimeoutMs: options.navigationTimeoutMs,
    });
    return session;
  };

  const run = async (
    input: BrowserActionInput,
    signal: AbortSignal,
  ): Promise<ToolResult<BrowserActionDetails>> => {
    const failed = (message: string) => ({ content: message, isError: true, details: emptyDetails(input) });
    switch (input.action) {
      case "launch": {
        if (!input.url) return failed('"launch" needs a url, e.g. http://localhost:3000.');
        const resolved = resolveBrowserUrl(input.url, options.workspace);
        if (!resolved.ok) return failed(resolved.message);
        if (!findBrowserOrSession()) return failed(NO_BROWSER);
        return render(input, await getSession().launch(resolved.url, signal));
      }
      case "click": {
        const point = parseCoordinate(input.coordinate, viewport);
        if (typeof point === "string") return failed(point);
        return render(input, await openSession().click(point.x, point.y, signal));
      }
      case "type":
        if (input.text === undefined) return failed('"type" needs the text to type.');
        return render(input, await openSession().type(input.text, signal));
      case "scroll_down":
      case "scroll_up":
        return render(
          input,
          await openSession().scroll(input.action === "scroll_down" ? "down" : "up", signal),
        );
      case "close": {
        const wasOpen = session ? await session.close() : false;
        return {
          content: wasOpen ? "The browser was closed." : "The browser was not open; nothing to close.",
          details: emptyDetails(input),
        };
      }
    }
  };

  const findBrowserOrSession = () =>
    session !== undefined || findBrowser({ executablePath: options.executablePath }) !== undefined;

  const openSession = (): BrowserSession => {
    if (!session?.isOpen) throw new BrowserSessionError("not_open", NOT_OPEN);
    return session;
  };

  return {
    name: "browser_action",
    description: describe(viewport.width, viewport.height),
    inputSchema: schema,
    mutates: true,
    category: "browser",
    summarize: (input) => `browser_action ${input.action}${summaryArgument(input)}`,
    async dispose() {
      await session?.dispose();
    },
    async execute(input, ctx) {
      try {
        return await run(input, ctx.signal);
      } catch (error) {
        if (!(error instanceof BrowserSessionError)) throw error;
        const message = error.code === "not_open" ? NOT_OPEN : error.message;
        return { content: message, isError: true, details: emptyDetails(input) };
      }
    },
  };
}

const NO_BROWSER =
  "No Chromium browser was found (looked at BOWLINE_CHROMIUM, /usr/bin/chromium, /usr/bin/chromium-browser, /usr/bin/google-chrome). Install one (Debian: apt-get install chromium) or check the page another way.";

function summaryArgument(input: BrowserActionInput): string {
  if (input.action === "launch" && input.url) return ` ${oneLine(input.url)}`;
  if (input.action === "click" && input.coordinate) return ` ${oneLine(input.coordinate)}`;
  if (input.action === "type" && input.text !== undefined) return ` ${oneLine(input.text)}`;
  return "";
}

/** `{x, y}` from "x,y", or the message explaining what is wrong. */
export function parseCoordinate(
  coordinate: string | undefined,
  viewport: { width: number; height: number },
): { x: number; y: number } | string {
  if (!coordinate) return '"click" needs a coordinate "x,y", e.g. "450,300".';
  const match = /^\s*\(?\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)?\s*$/.exec(coordinate);
  if (!match) return `The coordinate "${coordinate}" is not of the form "x,y", e.g. "450,300".`;
  const x = Number(match[1]);
  const y = Number(match[2]);
  if (x < 0 || y < 0 || x >= viewport.width || y >= viewport.height) {
    return `The coordinate ${x},${y} is outside the ${viewport.width}x${viewport.height} viewport. Scroll to bring the element into view, then click inside the viewport.`;
  }
  return { x, y };
}

function emptyDetails(input: BrowserActionInput): BrowserActionDetails {
  return { action: input.action, logs: [], warnings: [] };
}

function render(input: BrowserActionInput, shot: BrowserSnapshot): ToolResult<BrowserActionDetails> {
  const lines = [`Current URL: ${shot.url}`, ...shot.warnings];
  lines.push(shot.logs.length > 0 ? `Console output:\n${shot.logs.join("\n")}` : "Console output: (none)");
  if (!shot.screenshot) lines.push("(No screenshot is attached.)");
  const content: Array<TextBlock | ImageBlock> = [{ type: "text", text: lines.join("\n") }];
  if (shot.screenshot) content.push({ type: "image", ...shot.screenshot });
  const details: BrowserActionDetails = {
    action: input.action,
    url: shot.url,
    logs: shot.logs,
    warnings: shot.warnings,
    screenshot: shot.screenshot?.mediaType,
  };
  // A page that could not be loaded is something the model should notice and act on.
  return shot.loadFailed ? { content, details, isError: true } : { content, details };
}
