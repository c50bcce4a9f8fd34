import { PerformanceObserver } from "node:perf_hooks";
import { buildMessage } from "./bench/xml-parser.js";
import { createXmlToolParser } from "./src/agent/xml/index.js";

let gcMs = 0;
const kinds: Record<string, number> = {};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs += e.duration;
    const k = String((e as any).detail?.kind);
    kinds[k] = (kinds[k] ?? 0) + e.duration;
  }
}).observe({ entryTypes: ["gc"] });
const tools = new Map([
  ["read_file", ["path", "start_line", "end_line"]],
  ["write_to_file", ["path", "content"]],
  ["replace_in_file", ["path", "diff"]],
  ["execute_command", ["command", "requires_approval"]],
  ["attempt_completion", ["result"]],
]);
const tick = () => new Promise((r) => setTimeout(r, 0));
for (const size of [1 << 20, 4 << 20, 1 << 20, 4 << 20]) {
  const msg = buildMessage(size);
  const chunks: string[] = [];
  for (let i = 0; i < msg.length; i += 16) chunks.push(msg.slice(i, i + 16));
  const ts = [];
  let g0 = 0;
  for (let r = 0; r < 8; r++) {
    await tick();
    g0 = gcMs;
    for (const k in kinds) kinds[k] = 0;
    const t = performance.now();
    const p = createXmlToolParser({ tools });
    for (const c of chunks) p.push(c);
    p.end();
    const el = performance.now() - t;
    await tick();
    ts.push(`${el.toFixed(0)}/${(gcMs - g0).toFixed(0)}`);
  }
  console.log(size, ts.join(" "), JSON.stringify(kinds));
}
