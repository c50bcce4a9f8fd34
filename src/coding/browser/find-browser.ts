import fs from "node:fs";

/** Where a Chromium-family browser is looked for when neither an option nor the env names one. */
export const BROWSER_CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

export interface FindBrowserOptions {
  /** Used when given and executable. */
  executablePath?: string;
  /** Default `process.env`; `BOWLINE_CHROMIUM` names the browser. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The path of a Chromium-family browser to drive: the option, then `BOWLINE_CHROMIUM`, then the
 * usual system locations. Undefined when none is an executable file. Never throws.
 */
export function findBrowser(options: FindBrowserOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const candidates = [options.executablePath, env.BOWLINE_CHROMIUM, ...BROWSER_CANDIDATES];
  return candidates.find(
    (candidate) => candidate !== undefined && candidate !== "" && isExecutable(candidate),
  );
}

function isExecutable(path: string): boolean {
  try {
    fs.accessSync(path, fs.constants.X_OK);
    return fs.statSync(path).isFile();
  } catch {
    return false;
  }
}
