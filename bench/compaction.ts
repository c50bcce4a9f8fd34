/**
 * Compaction: a scripted session of `turns` tool turns on a 32k-token model, driven through the
 * ContextManager the way the task loop drives it (prepare, send, append the reply and the
 * results). A fake provider counts every request with o200k, scaled up (models such as Claude
 * count code as more tokens than o200k does), and reports that count as the usage, with the part
 * equal to the previous request as cache reads. Checks that no request, the summary requests
 * included, leaves less than the reserved reply room in the window.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createContextManager } from "../src/agent/context/index.js";
import type { ContentBlock, LlmMessage, LlmRequest, LlmToolDefinition, LlmUsage } from "../src/llm/types.js";
import { median, now, round } from "./support.js";

export interface CompactionBenchOptions {
  turns: number;
  /** Provider tokens per o200k token. Default 1.15. */
  providerRatio?: number;
  contextWindow?: number;
}

const INFO = { contextWindow: 32_000, maxOutputTokens: 8192 };

/** A small deterministic PRNG (mulberry32), so every run plays the same session. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

const WORDS = [
  "token",
  "parser",
  "config",
  "session",
  "request",
  "buffer",
  "index",
  "result",
  "handler",
  "stream",
  "value",
  "options",
  "cache",
  "entry",
  "journal",
  "message",
];

function codeLine(rng: ReturnType<typeof random>, n: number): string {
  const a = rng.pick(WORDS);
  const b = rng.pick(WORDS);
  const shapes = [
    `export function ${a}${b[0]!.toUpperCase()}${b.slice(1)}(${a}: ${b === "value" ? "number" : "string"}): void {`,
    `  const ${a} = await ${b}.read(${n}, { ${a}: true });`,
    `  if (!${a}.${b}) throw new Error("missing ${b} in ${a} at line ${n}");`,
    `  return ${a}.map((${b}) => ${b}.${a} ?? ${n});`,
    "}",
    `// ${a} and ${b}: keep the ${a} in step with the ${b}.`,
  ];
  return rng.pick(shapes);
}

/** A file's numbered lines as read_file returns them. */
function fileText(seed: number, version: number, lines: number): string {
  const rng = random(seed * 7919 + version);
  const width = String(lines).length;
  return Array.from(
    { length: lines },
    (_, i) => `${String(i + 1).padStart(width)} | ${codeLine(rng, i + 1)}`,
  ).join("\n");
}

const SYSTEM = [
  "You are Bowline, an autonomous coding agent working in the user's repository.",
  ...Array.from(
    { length: 60 },
    (_, i) =>
      `Rule ${i + 1}: read the relevant files before editing, keep changes small, run the tests after each change, and report what you did and why in plain words.`,
  ),
].join("\n");

const TOOLS: LlmToolDefinition[] = [
  "read_file",
  "search_files",
  "list_files",
  "execute_command",
  "replace_in_file",
  "write_to_file",
  "ask_followup_question",
  "attempt_completion",
].map((name) => ({
  name,
  description: `The ${name.replace(/_/g, " ")} tool. ${"It takes the parameters below and returns text the model reads. ".repeat(3)}`,
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path relative to the workspace root." },
      start_line: { type: "integer", description: "First line, 1-based." },
      end_line: { type: "integer", description: "Last line, inclusive." },
      command: { type: "string", description: "The shell command to run." },
    },
    required: ["path"],
  },
}));

/** The scripted session: each turn's assistant message and the results of its calls. */
function createScript() {
  const rng = random(42);
  const versions = new Map<number, number>();
  let callId = 0;
  return (turn: number): [LlmMessage, LlmMessage] => {
    const file = rng.next() < 0.4 && turn > 5 ? rng.int(8) : rng.int(40);
    const path = `src/module${file}.ts`;
    const kind = rng.next();
    let name: string;
    let input: Record<string, unknown>;
    let output: string;
    if (kind < 0.45) {
      name = "read_file";
      input = { path };
      output = fileText(file, versions.get(file) ?? 0, 40 + ((file * 37) % 260));
    } else if (kind < 0.6) {
      name = "search_files";
      input = { path: "src", regex: rng.pick(WORDS) };
      output = Array.from(
        { length: 10 + rng.int(60) },
        (_, i) => `src/module${rng.int(40)}.ts:${i * 3 + 1}: ${codeLine(rng, i)}`,
      ).join("\n");
    } else if (kind < 0.8) {
      name = "execute_command";
      input = { command: "npm test" };
      const lines = 20 + rng.int(180);
      output = Array.from({ length: lines }, (_, i) =>
        i % 17 === 5
          ? `  ✗ ${rng.pick(WORDS)} ${rng.pick(WORDS)} (${i} ms)\n    AssertionError: expected ${i} to be ${i + 1}`
          : `  ✓ ${rng.pick(WORDS)} handles ${rng.pick(WORDS)} (${rng.int(40)} ms)`,
      ).join("\n");
    } else {
      name = "replace_in_file";
      input = {
        path,
        diff: `------- SEARCH\n${codeLine(rng, 1)}\n=======\n${codeLine(rng, 2)}\n+++++++ REPLACE`,
      };
      versions.set(file, (versions.get(file) ?? 0) + 1);
      output = `The edit was applied to ${path}.`;
    }
    const id = `call_${++callId}`;
    return [
      {
        role: "assistant",
        content: [
          { type: "text", text: `Turn ${turn}: next I use ${name} on ${path}.` },
          { type: "tool_call", id, name, input },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", callId: id, content: [{ type: "text", text: output }] }],
      },
    ];
  };
}

/**
 * The fake provider: o200k counts scaled by `ratio`. The cached part of a request is its longest
 * run of content blocks equal to the previous request's, as a prefix cache sees it (a block added
 * to the last user message extends the prefix like a new user message would).
 */
function createProvider(ratio: number) {
  const blockTokens = new WeakMap<ContentBlock, number>();
  const fixed = countTokens(SYSTEM) + countTokens(JSON.stringify(TOOLS));
  const count = (block: ContentBlock) => {
    let tokens = blockTokens.get(block);
    if (tokens === undefined) {
      tokens = 2 + countTokens(JSON.stringify(block));
      blockTokens.set(block, tokens);
    }
    return tokens;
  };
  let previous: string[] = [];
  /** The usage of `request`, and whether it begins with the whole previous request. */
  return (request: LlmRequest): { usage: LlmUsage; extendsPrevious: boolean } => {
    const blocks = request.messages.flatMap((m) => m.content.map((block) => ({ role: m.role, block })));
    const bodies = blocks.map(({ role, block }) => `${role}:${JSON.stringify(block)}`);
    let shared = 0;
    while (shared < bodies.length && shared < previous.length && bodies[shared] === previous[shared])
      shared++;
    const extendsPrevious = shared === previous.length;
    previous = bodies;
    const sum = (part: typeof blocks) => part.reduce((total, { block }) => total + count(block), 0);
    const cached = Math.ceil((fixed + sum(blocks.slice(0, shared))) * ratio);
    const total = Math.ceil((fixed + 4 * request.messages.length + sum(blocks)) * ratio);
    const usage = {
      inputTokens: 0,
      outputTokens: 200,
      cacheReadTokens: cached,
      cacheWriteTokens: total - cached,
    };
    return { usage, extendsPrevious };
  };
}

/** A summary of the plausible length, naming the files the request's history touched. */
function fakeSummary(request: LlmRequest): string {
  const files = new Set<string>();
  for (const message of request.messages) {
    for (const block of message.content) {
      const path = block.type === "tool_call" ? (block.input as { path?: unknown }).path : undefined;
      if (typeof path === "string") files.add(path);
    }
  }
  return [
    "1. Goal: make the test suite pass after the parser refactor.",
    "2. Decisions: keep the public API; fix the callers rather than the tests.",
    `3. Files: ${[...files].join(", ")}.`,
    "4. Done: the parser and the session modules are updated and their tests pass.",
    "5. Left: the handler tests still fail on the cache entries.",
    "6. Next step: read src/module3.ts around the cache entry code and fix the off-by-one.",
  ].join("\n");
}

export async function benchCompaction(options: CompactionBenchOptions) {
  const ratio = options.providerRatio ?? 1.15;
  const info = { ...INFO, contextWindow: options.contextWindow ?? INFO.contextWindow };
  const provider = createProvider(ratio);
  const summaries: Array<{ tokens: number; cachedShare: number; extendsPrevious: boolean }> = [];
  const manager = createContextManager({
    info,
    summarize: async (request) => {
      const { usage, extendsPrevious } = provider(request);
      const tokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
      summaries.push({ tokens, cachedShare: usage.cacheReadTokens / tokens, extendsPrevious });
      return fakeSummary(request);
    },
  });
  const script = createScript();
  let history: LlmMessage[] = [
    { role: "user", content: [{ type: "text", text: "<task>\nFix the failing tests.\n</task>" }] },
  ];
  let lastUsage: LlmUsage | undefined;
  const compactions = { summary: 0, truncation: 0 };
  let deduplicated = 0;
  let maxRequest = 0;
  let maxEstimate = 0;
  const errors: number[] = [];
  const prepareMs: number[] = [];
  for (let turn = 0; turn < options.turns; turn++) {
    const started = now();
    const prepared = await manager.prepare(history, { system: SYSTEM, tools: TOOLS, lastUsage });
    prepareMs.push(now() - started);
    if (prepared.compacted) {
      compactions[prepared.compacted.kind]++;
      history = prepared.history;
    }
    deduplicated += prepared.deduplicated ?? 0;
    lastUsage = provider({ system: SYSTEM, tools: TOOLS, messages: prepared.history }).usage;
    const sent = lastUsage.inputTokens + lastUsage.cacheReadTokens + lastUsage.cacheWriteTokens;
    maxRequest = Math.max(maxRequest, sent);
    maxEstimate = Math.max(maxEstimate, prepared.tokens);
    errors.push((prepared.tokens - sent) / sent);
    history = [...history, ...script(turn)];
  }
  const maxSummaryRequest = Math.max(0, ...summaries.map((s) => s.tokens));
  const roomForReply = info.contextWindow - manager.window.reservedOutput;
  return {
    turns: options.turns,
    contextWindow: info.contextWindow,
    usable: manager.window.usable,
    threshold: manager.window.threshold,
    providerRatio: ratio,
    compactions,
    deduplicated,
    maxRequestTokens: maxRequest,
    maxEstimateTokens: maxEstimate,
    maxSummaryRequestTokens: maxSummaryRequest,
    /** Estimate minus the provider's count, as a share of the count (negative: underestimated). */
    estimateError: {
      median: round(median(errors), 3),
      worstUnder: round(Math.min(...errors), 3),
      worstOver: round(Math.max(...errors), 3),
    },
    /**
     * The smallest share of a summary request that the previous request had already sent (what a
     * prompt cache serves); the rest is the latest turn and the summary instruction.
     */
    summaryCachedShare: summaries.length ? round(Math.min(...summaries.map((s) => s.cachedShare)), 3) : 1,
    prepareMs: { median: round(median(prepareMs), 3), max: round(Math.max(...prepareMs), 2) },
    met: {
      neverOverWindow: Math.max(maxRequest, maxSummaryRequest) <= roomForReply,
      estimatesWithinWindow: maxEstimate <= roomForReply,
      compacted: compactions.summary > 0,
      summaryRequestsExtendPrevious: summaries.every((s) => s.extendsPrevious),
    },
  };
}
