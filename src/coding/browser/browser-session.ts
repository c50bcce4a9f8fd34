import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { createPageLog, type PageLog } from "./page-log.js";
import { releaseOnSignal } from "./release-on-signal.js";

/** What the page looks like after an action. */
export interface BrowserSnapshot {
  /** The page's URL after the action. */
  url: string;
  /** Undefined when no screenshot could be taken (the reason is in `warnings`). */
  screenshot?: { mediaType: "image/png"; data: string };
  /** Console lines and page errors since the previous action, oldest first. */
  logs: string[];
  /** Why the result may be incomplete, e.g. the navigation timed out. */
  warnings: string[];
  /** True when a navigation failed or timed out. */
  loadFailed: boolean;
}

/**
 * One browser for one task. Actions run one at a time. Contract: `launch`, `click`, `type` and
 * `scroll` throw `BrowserSessionError` (code `not_open` when nothing is launched, `aborted` when
 * `signal` aborts first) and whatever Playwright throws when the browser cannot start or crashes;
 * `close` and `dispose` never throw.
 */
export interface BrowserSession {
  readonly isOpen: boolean;
  /** Starts the browser if needed, then navigates its page to `url`. */
  launch(url: string, signal?: AbortSignal): Promise<BrowserSnapshot>;
  /** Left click at viewport coordinates (CSS pixels). */
  click(x: number, y: number, signal?: AbortSignal): Promise<BrowserSnapshot>;
  /** Types `text` into whatever has focus. */
  type(text: string, signal?: AbortSignal): Promise<BrowserSnapshot>;
  /** Scrolls the page one viewport height. */
  scroll(direction: "up" | "down", signal?: AbortSignal): Promise<BrowserSnapshot>;
  /** Closes the browser; resolves false when none was open. */
  close(): Promise<boolean>;
  /** Closes the browser, including one still starting. Call when the task ends. */
  dispose(): Promise<void>;
}

export type BrowserSessionErrorCode = "not_open" | "aborted";

export class BrowserSessionError extends Error {
  constructor(
    readonly code: BrowserSessionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "BrowserSessionError";
  }
}

export interface BrowserSessionOptions {
  executablePath: string;
  /** Default 900x600. */
  viewport?: { width: number; height: number };
  /** How long a navigation may take before the tool reports what it has. Default 10_000 ms. */
  navigationTimeoutMs?: number;
  /** How long the browser may take to start. Default 20_000 ms. */
  launchTimeoutMs?: number;
  /** Time given to the page to react to a click, typing or scrolling. Default 300 ms. */
  settleMs?: number;
  /** Where the browser's fresh profile directory is made (and removed on close). Default `os.tmpdir()`. */
  tempDir?: string;
}

/** Flags for a headless browser on a machine with a closed network and no sandbox support. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

const SCREENSHOT_TIMEOUT_MS = 5000;
const CLOSE_TIMEOUT_MS = 5000;

interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  log: PageLog;
  userDataDir: string;
  releaseSignals: () => void;
}

export function createBrowserSession(options: BrowserSessionOptions): BrowserSession {
  const viewport = options.viewport ?? { width: 900, height: 600 };
  const navigationTimeoutMs = options.navigationTimeoutMs ?? 10_000;
  const settleMs = options.settleMs ?? 300;
  let open: OpenBrowser | undefined;
  let starting: Promise<OpenBrowser> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs `op` after every earlier action; the caller stops waiting when `signal` aborts. */
  const serial = <T>(op: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> => {
    const result = queue.then(op);
    queue = result.catch(() => undefined);
    return untilAborted(result, signal);
  };

  const requireOpen = (): OpenBrowser => {
    if (!open) throw new BrowserSessionError("not_open", "The browser is not open.");
    return open;
  };

  const start = async (): Promise<OpenBrowser> => {
    const { chromium } = await loadPlaywright();
    const userDataDir = await fs.mkdtemp(path.join(options.tempDir ?? os.tmpdir(), "bowline-chromium-"));
    try {
      const context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: options.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport,
        timeout: options.launchTimeoutMs ?? 20_000,
        // Bowline's hosts own these signals (Ctrl-C aborts the task); see releaseOnSignal.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        acceptDownloads: false,
      });
      context.setDefaultTimeout(navigationTimeoutMs);
      context.setDefaultNavigationTimeout(navigationTimeoutMs);
      const page = context.pages()[0] ?? (await context.newPage());
      const browser: OpenBrowser = {
        context,
        page,
        log: createPageLog(),
        userDataDir,
        releaseSignals: () => undefined,
      };
      browser.log.watch(page);
      context.on("page", (popup) => {
        browser.log.watch(popup);
        browser.log.note(`A new tab opened (${popup.url() || "about:blank"}); actions now apply to it.`);
        browser.page = popup;
      });
      context.on("close", () => {
        if (open === browser) open = undefined;
      });
      browser.releaseSignals = releaseOnSignal(() => closeBrowser(browser));
      return browser;
    } catch (error) {
      await fs.rm(userDataDir, { recursive: true, force: true });
      throw error;
    }
  };

  const ensureOpen = async (): Promise<OpenBrowser> => {
    if (open) return open;
    starting ??= start().finally(() => {
      starting = undefined;
    });
    open = await starting;
    return open;
  };

  const currentPage = (browser: OpenBrowser): Page => {
    if (browser.page.isClosed()) {
      const pages = browser.context.pages();
      browser.page = pages[pages.length - 1] ?? browser.page;
    }
    return browser.page;
  };

  const snapshot = async (
    browser: OpenBrowser,
    warnings: string[],
    loadFailed = false,
  ): Promise<BrowserSnapshot> => {
    const page = currentPage(browser);
    let screenshot: BrowserSnapshot["screenshot"];
    try {
      const png = await page.screenshot({ type: "png", timeout: SCREENSHOT_TIMEOUT_MS });
      screenshot = { mediaType: "image/png", data: png.toString("base64") };
    } catch (error) {
      warnings.push(`No screenshot could be taken: ${firstLine(error)}`);
    }
    return { url: page.url(), screenshot, logs: browser.log.drain(), warnings, loadFailed };
  };

  /** Waits for the page to react to input, and for a navigation the input started to load. */
  const settle = async (page: Page, warnings: string[]): Promise<void> => {
    await delay(settleMs);
    try {
      await page.waitForLoadState("load", { timeout: navigationTimeoutMs });
    } catch {
      await stopLoading(page);
      warnings.push(
        `The page did not finish loading within ${navigationTimeoutMs / 1000} s and was stopped; the screenshot shows what it displays now.`,
      );
    }
  };

  const navigate = async (
    browser: OpenBrowser,
    url: string,
    signal?: AbortSignal,
  ): Promise<BrowserSnapshot> => {
    const warnings: string[] = [];
    const page = currentPage(browser);
    // An abort leaves the browser usable: the pending navigation is cancelled, not waited for.
    const onAbort = () => void stopLoading(page);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await page.goto(url, { waitUntil: "load", timeout: navigationTimeoutMs });
      if (response && !response.ok()) warnings.push(`The server answered HTTP ${response.status()}.`);
    } catch (error) {
      // A navigation that is still pending keeps screenshots waiting, so it is stopped first.
      await stopLoading(page);
      warnings.push(describeNavigationError(error, url, navigationTimeoutMs));
      return snapshot(browser, warnings, true);
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    return snapshot(browser, warnings);
  };

  const closeBrowser = async (browser: OpenBrowser): Promise<void> => {
    if (open === browser) open = undefined;
    browser.releaseSignals();
    await withTimeout(browser.context.close(), CLOSE_TIMEOUT_MS).catch(() => undefined);
    await fs.rm(browser.userDataDir, { recursive: true, force: true }).catch(() => undefined);
  };

  return {
    get isOpen() {
      return open !== undefined;
    },
    launch: (url, signal) =>
      serial(async () => {
        throwIfAborted(signal);
        return navigate(await ensureOpen(), url, signal);
      }, signal),
    click: (x, y, signal) =>
      serial(async () => {
        const browser = requireOpen();
        const page = currentPage(browser);
        const warnings: string[] = [];
        await page.mouse.click(x, y);
        await settle(currentPage(browser), warnings);
        return snapshot(browser, warnings);
      }, signal),
    type: (text, signal) =>
      serial(async () => {
        const browser = requireOpen();
        const page = currentPage(browser);
        const warnings: string[] = [];
        await page.keyboard.type(text);
        await settle(page, warnings);
        return snapshot(browser, warnings);
      }, signal),
    scroll: (direction, signal) =>
      serial(async () => {
        const browser = requireOpen();
        const page = currentPage(browser);
        const warnings: string[] = [];
        const dy = direction === "down" ? viewport.height : -viewport.height;
        await page.evaluate(`window.scrollBy({ top: ${dy}, behavior: "instant" })`);
        await settle(page, warnings);
        return snapshot(browser, warnings);
      }, signal),
    close: () =>
      serial(async () => {
        const browser = open ?? (await starting?.catch(() => undefined));
        if (!browser) return false;
        await closeBrowser(browser);
        return true;
      }, undefined),
    async dispose() {
      const browser = open ?? (await starting?.catch(() => undefined));
      if (browser) await closeBrowser(browser);
    },
  };
}

type Playwright = typeof import("playwright-core");
/**
 * A variable, not a literal, so that bundlers leave playwright-core out of the CLI bundle: it is
 * large and finds its own files relative to its package, so it is loaded from node_modules.
 */
const PLAYWRIGHT_MODULE: string = "playwright-core";
let playwright: Promise<Playwright> | undefined;

/** Loaded on first launch so that starting Bowline does not pay for it. */
function loadPlaywright(): Promise<Playwright> {
  playwright ??= import(PLAYWRIGHT_MODULE) as Promise<Playwright>;
  return playwright;
}

function describeNavigationError(error: unknown, url: string, timeoutMs: number): string {
  if ((error as Error | undefined)?.name === "TimeoutError") {
    return `The page at ${url} did not finish loading within ${timeoutMs / 1000} s and was stopped; the server may be down, slow, or never answering. The screenshot and URL show what the browser displays now.`;
  }
  return `Navigating to ${url} failed: ${firstLine(error)}`;
}

/** Cancels the page's pending navigation and loads. Never throws (a closed page has nothing to stop). */
async function stopLoading(page: Page): Promise<void> {
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Page.stopLoading");
    await cdp.detach();
  } catch {
    // The page or browser is gone: there is nothing left to stop.
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new BrowserSessionError("aborted", "The browser action was aborted.");
}

/** `promise`, or a rejection with code `aborted` as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new BrowserSessionError("aborted", "The browser action was aborted."));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
