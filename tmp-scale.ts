import { buildMessage } from "./bench/xml-parser.js";
import { createXmlToolParser } from "./src/agent/xml/index.js";

const tools = new Map([
  ["read_file", ["path", "start_line", "end_line"]],
  ["write_to_file", ["path", "content"]],
  ["replace_in_file", ["path", "diff"]],
  ["execute_command", ["command", "requires_approval"]],
  ["attempt_completion", ["result"]],
]);
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
for (const mb of [1, 2, 4, 8, 1, 4]) {
  const msg = buildMessage(mb << 20);
  const chunks: string[] = [];
  for (let i = 0; i < msg.length; i += 16) chunks.push(msg.slice(i, i + 16));
  const ts: number[] = [];
  for (let r = 0; r < 15; r++) {
    const t = performance.now();
    const p = createXmlToolParser({ tools });
    for (const c of chunks) p.push(c);
    p.end();
    ts.push(performance.now() - t);
  }
  console.log(mb, "MB median", med(ts.slice(5)).toFixed(1), "per MB", (med(ts.slice(5)) / mb).toFixed(1));
}
