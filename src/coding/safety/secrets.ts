import fs from "node:fs";
import path from "node:path";
import type { ToolHandler } from "../../agent/tool.js";

/** Replaces secrets in text before it is shown, journaled or sent to the model. */
export interface SecretMasker {
  mask(text: string): string;
}

/** Known key and token formats, each with the name shown in its place. */
const KNOWN_FORMATS: Array<[RegExp, string]> = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g, "private key"],
  [/\bsk-ant-[A-Za-z0-9_-]{20,}/g, "anthropic key"],
  [/\bsk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_-]{20,}/g, "api key"],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/g, "github token"],
  [/\bgithub_pat_[A-Za-z0-9_]{22,}/g, "github token"],
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, "gitlab token"],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, "aws access key"],
  [/\bAIza[0-9A-Za-z_-]{35}/g, "google api key"],
  [/\bya29\.[0-9A-Za-z_-]{20,}/g, "google oauth token"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, "slack token"],
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}/g, "stripe key"],
  [/\bnpm_[A-Za-z0-9]{36}\b/g, "npm token"],
  [/\bhf_[A-Za-z0-9]{30,}/g, "hugging face token"],
  [/\b(?:gsk|xai)[_-][A-Za-z0-9]{40,}/g, "api key"],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, "jwt"],
];

/** `password=...`, `"apiKey": "..."`, `Authorization: Bearer ...`: the value, when it looks like a secret. */
const LABELLED =
  /((?:api[_-]?key|secret|token|passw(?:or)?d|auth|credential|bearer)[A-Za-z0-9_-]*["']?\s*[:=]\s*["']?|\bBearer\s+)([A-Za-z0-9+/_=-]{12,})/gi;
/** `scheme://user:password@host`. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]{3,})@/gi;

/** Mixed letters and digits: a generated value rather than an identifier in code. */
const looksRandom = (value: string) => /\d.*\d/.test(value) && /[A-Za-z].*[A-Za-z]/.test(value);

/**
 * A masker for the known formats, labelled values that look random, passwords in URLs, and
 * every exact value in `values` (e.g. from `.env` files and the environment) of 8+ characters.
 */
export function createSecretMasker(values: readonly string[] = []): SecretMasker {
  const exact = [...new Set(values.filter((value) => value.length >= 8))].sort((a, b) => b.length - a.length);
  return {
    mask(text) {
      let result = text;
      for (const value of exact)
        if (result.includes(value)) result = result.split(value).join("[masked secret]");
      for (const [pattern, name] of KNOWN_FORMATS) result = result.replace(pattern, `[masked ${name}]`);
      result = result.replace(LABELLED, (whole, label: string, value: string) =>
        looksRandom(value) ? `${label}[masked secret]` : whole,
      );
      return result.replace(URL_PASSWORD, "$1[masked]@");
    },
  };
}

/** Values that are not secrets however they are labelled. */
const NOT_SECRET = /^(true|false|yes|no|on|off|null|none|\d+|https?:\/\/(localhost|127\.0\.0\.1)[^\s]*)$/i;

/** The values of `.env` files at the workspace root (`.env`, `.env.local`, ...; not examples). */
export function envFileSecrets(workspaceRoot: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(workspaceRoot).filter((name) => /^\.env(\..+)?$/.test(name));
  } catch {
    return [];
  }
  const values: string[] = [];
  for (const name of names) {
    if (/\.(example|sample|template|dist)$/.test(name)) continue;
    let text: string;
    try {
      text = fs.readFileSync(path.join(workspaceRoot, name), "utf8");
    } catch {
      continue;
    }
    for (const line of text.split(/\r?\n/)) {
      const match = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*=\s*(.*)$/.exec(line);
      const value = match?.[1]?.trim().replace(/^(["'])(.*)\1$/, "$2");
      if (value && !NOT_SECRET.test(value)) values.push(value);
    }
  }
  return values;
}

/** Values of environment variables named like credentials (`*_API_KEY`, `*_TOKEN`, ...). */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value && /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS|_PAT)$/i.test(name))
    .map(([, value]) => value!)
    .filter((value) => !NOT_SECRET.test(value));
}

/** `tool` with secrets masked in its result text and in the output it streams. */
export function withSecretMasking<T extends ToolHandler>(tool: T, masker: SecretMasker): T {
  return Object.assign(Object.create(tool) as T, {
    async execute(input: unknown, ctx: Parameters<T["execute"]>[1]) {
      const result = await tool.execute(input, {
        ...ctx,
        onProgress: (progress) => ctx.onProgress({ ...progress, text: masker.mask(progress.text) }),
      });
      const content =
        typeof result.content === "string"
          ? masker.mask(result.content)
          : result.content.map((block) =>
              block.type === "text" ? { ...block, text: masker.mask(block.text) } : block,
            );
      return { ...result, content };
    },
  });
}
