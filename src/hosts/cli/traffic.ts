/**
 * `--record` and `--replay`: the model configs get a fetch that records the provider traffic,
 * or one that plays a recording back with no network and no key.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createRecorder, loadReplay, RecordingError } from "../../llm/recording.js";
import type { ModelConfig } from "../../llm/types.js";

export interface ModelTraffic {
  /** The configs to run with (replay: made from the recording's header). */
  act: ModelConfig;
  plan?: ModelConfig;
  /** Ends recording, or checks the replay was played whole; a problem to report, if any. */
  finish(): string | undefined;
}

/** Where a replay sends requests: nowhere real, the fetch answers them. */
const REPLAY_ORIGIN = "http://replay.invalid";

export function replayTraffic(file: string): ModelTraffic {
  const replay = loadReplay(file);
  const { provider, wireFormat, model, basePath } = replay.header;
  const act: ModelConfig = {
    provider,
    wireFormat,
    model,
    // Some SDKs insist on a key; nothing is sent anywhere.
    apiKey: "replay",
    baseUrl: `${REPLAY_ORIGIN}${basePath ?? ""}`,
    fetch: replay.fetch,
    maxRetries: 0,
  };
  return {
    act,
    finish() {
      try {
        replay.assertComplete();
        return undefined;
      } catch (error) {
        if (error instanceof RecordingError) return error.message;
        throw error;
      }
    },
  };
}

export function recordTraffic(file: string, act: ModelConfig, plan?: ModelConfig): ModelTraffic {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  const basePath = act.baseUrl ? new URL(act.baseUrl).pathname.replace(/\/$/, "") : undefined;
  const recorder = createRecorder(
    file,
    {
      provider: act.provider,
      wireFormat: act.wireFormat,
      model: act.model,
      ...(basePath ? { basePath } : {}),
    },
    { secrets: [act.apiKey, ...(plan ? [plan.apiKey] : [])].filter((key) => key.length > 0) },
  );
  return {
    act: { ...act, fetch: recorder.fetch },
    ...(plan ? { plan: { ...plan, fetch: recorder.fetch } } : {}),
    finish() {
      recorder.close();
      return undefined;
    },
  };
}
