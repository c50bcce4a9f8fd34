import { buildMessage } from "./bench/xml-parser.js";
import { createXmlToolParser } from "./src/agent/xml/index.js";

const tools = new Map([
  ["read_file", ["path", "start_line", "end_line"]],
  ["write_to_file", ["path", "content"]],
  ["replace_in_file", ["path", "diff"]],
  ["execute_command", ["command", "requires_approval"]],
  ["attempt_completion", ["result"]],
]);
for (const size of [1 << 20, 4 << 20, 1 << 20, 4 << 20]) {
  const msg = buildMessage(size);
  const chunks: string[] = [];
  for (let i = 0; i < msg.length; i += 16) chunks.push(msg.slice(i, i + 16));
  const ts = [];
  for (let r = 0; r < 10; r++) {
    const t = performance.now();
    const p = createXmlToolParser({ tools });
    for (const c of chunks) p.push(c);
    p.end();
    ts.push((performance.now() - t).toFixed(0));
  }
  console.log(size, ts.join(" "));
}
