/** `bowline models --check`: whether a provider answers, with a cheap request for its model list. */
import { NO_KEY_NEEDED } from "../../llm/config.js";
import type { ProviderPreset } from "../../llm/presets.js";
import { redactSecrets } from "../../llm/stream-error.js";
import type { WireFormat } from "../../llm/types.js";

/** A provider to probe: where it is and the key that authorises the request. */
export interface ProbeTarget {
  name: string;
  wireFormat: WireFormat;
  baseUrl?: string;
  apiKey: string;
  headers?: Record<string, string>;
  listModels?: ProviderPreset["listModels"];
}

export interface ProbeResult {
  name: string;
  state: "reachable" | "rejected" | "unreachable" | "not-checked";
  detail: string;
  /** The models a local server has (Ollama, LM Studio, vLLM). */
  models?: string[];
}

/** Where a wire format lists its models, and the headers that authorise the request. */
function modelsEndpoint(
  target: ProbeTarget,
  base: string,
): { url: URL; headers: Record<string, string> } | undefined {
  const key = target.apiKey && target.apiKey !== NO_KEY_NEEDED ? target.apiKey : undefined;
  const bearer: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const root = base.endsWith("/") ? base : `${base}/`;
  if (target.listModels) return { url: new URL(target.listModels.path, root), headers: bearer };
  switch (target.wireFormat) {
    case "openai-chat":
    case "openai-responses":
      return { url: new URL("models", root), headers: bearer };
    case "anthropic-messages":
      return {
        url: new URL("v1/models", root),
        headers: { ...(key ? { "x-api-key": key } : {}), "anthropic-version": "2023-06-01" },
      };
    case "gemini":
      return { url: new URL("v1beta/models", root), headers: key ? { "x-goog-api-key": key } : {} };
    case "bedrock-converse":
      return undefined;
  }
}

/**
 * Asks a provider for its model list, a cheap authenticated GET. Reports whether it answered,
 * refused the key, or could not be reached; for a local server, the models it has.
 */
export async function probeProvider(target: ProbeTarget, timeoutMs = 3000): Promise<ProbeResult> {
  const endpoint = target.baseUrl ? modelsEndpoint(target, target.baseUrl) : undefined;
  if (!endpoint) {
    return {
      name: target.name,
      state: "not-checked",
      detail: "not checked (requests are signed with your AWS credentials)",
    };
  }
  const secrets = [target.apiKey];
  try {
    const response = await fetch(endpoint.url, {
      headers: { ...target.headers, ...endpoint.headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const status = `HTTP ${response.status}`;
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return {
        name: target.name,
        state: "rejected",
        detail: `reachable, but the key was refused (${status})`,
      };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return {
        name: target.name,
        state: "reachable",
        detail: `reachable, but ${endpoint.url.pathname} answered ${status}`,
      };
    }
    if (!target.listModels) {
      await response.body?.cancel();
      return { name: target.name, state: "reachable", detail: `reachable (${status})` };
    }
    const models = listedModels(await response.json(), target.listModels);
    return { name: target.name, state: "reachable", detail: `reachable, ${models.length} model(s)`, models };
  } catch (error) {
    return {
      name: target.name,
      state: "unreachable",
      detail: redactSecrets(`unreachable: ${failureOf(error, timeoutMs)}`, secrets),
    };
  }
}

function listedModels(body: unknown, spec: NonNullable<ProbeTarget["listModels"]>): string[] {
  const list = (body as Record<string, unknown> | null)?.[spec.list];
  if (!Array.isArray(list)) return [];
  return list
    .map((item) => (item as Record<string, unknown> | null)?.[spec.id])
    .filter((id) => typeof id === "string");
}

/** A short reason a request failed: the system error code, or that it timed out. */
function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === "TimeoutError")
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  return String((cause?.message as string | undefined) ?? (error as Error).message);
}
