/**
 * The colours of the interface. With `NO_COLOR` set (https://no-color.org) every colour is
 * dropped; nothing relies on colour alone: diffs keep their `+`/`-` marks, tool lines their
 * ✓ ✗ ⊘ symbols, and the mode is written out.
 */
export interface Theme {
  readonly color: boolean;
  readonly user: string | undefined;
  readonly accent: string | undefined;
  readonly added: string | undefined;
  readonly removed: string | undefined;
  readonly hunk: string | undefined;
  readonly warning: string | undefined;
  readonly error: string | undefined;
  readonly success: string | undefined;
  readonly muted: string | undefined;
  readonly code: string | undefined;
  readonly keyword: string | undefined;
  readonly string: string | undefined;
  readonly comment: string | undefined;
  readonly number: string | undefined;
  readonly plan: string | undefined;
}

const COLORS: Theme = {
  color: true,
  user: "cyan",
  accent: "blue",
  added: "green",
  removed: "red",
  hunk: "cyan",
  warning: "yellow",
  error: "red",
  success: "green",
  muted: "gray",
  code: "cyan",
  keyword: "magenta",
  string: "green",
  comment: "gray",
  number: "yellow",
  plan: "yellow",
};

const NONE: Theme = Object.fromEntries(
  Object.keys(COLORS).map((key) => [key, key === "color" ? false : undefined]),
) as unknown as Theme;

/** The theme for an environment: no colours when `NO_COLOR` is set to anything non-empty. */
export function themeFor(env: NodeJS.ProcessEnv): Theme {
  return env.NO_COLOR ? NONE : COLORS;
}
