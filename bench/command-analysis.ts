import { pathToFileURL } from "node:url";
import { analyzeCommand } from "../src/coding/safety/command-check.js";
import { decideCommandLine } from "../src/coding/safety/command-verdict.js";
import { createPathContext } from "../src/coding/safety/paths.js";
import { parsePermissions } from "../src/coding/safety/permission-settings.js";
import { loadShellParser } from "../src/coding/safety/shell-parser.js";
import { median, percentile, round } from "./support.js";

/** Command lines as models write them: single commands, pipelines, chains, wrappers, bash -c. */
const TYPICAL_LINES = [
  "ls -la",
  "git status",
  "npm test",
  "git diff HEAD~1 -- src/index.ts",
  "git log --oneline -20 | head -5",
  'grep -rn "TODO" src --include="*.ts" | wc -l',
  "cd packages/core && npm run build 2>&1 | tail -30",
  "npx vitest run test/unit --reporter=dot",
  "find . -name '*.test.ts' -not -path './node_modules/*' | xargs grep -l describe",
  "python3 -m pytest tests/ -x -q 2>&1 | tail -20",
  "mkdir -p build && cp -r assets build/ && echo done",
  'bash -c "npm ci && npm test"',
  "timeout 120 cargo test --workspace",
  "cat package.json | jq '.scripts'",
  'for f in src/*.ts; do echo "$f"; wc -l "$f"; done',
  "git add -A && git commit -m 'Fix the parser' && git push origin HEAD",
];

const RULES = parsePermissions(
  {
    allow: ["execute_command(npm test)", "execute_command(npx vitest)", "execute_command(git add)"],
    deny: ["execute_command(rm)", "execute_command(git push --force)", "edit(.env)"],
  },
  "bench",
);

const targets = { medianMs: 2 };

/**
 * Median time to analyse and decide one typical command line (parse with tree-sitter-bash,
 * split into simple commands, unwrap, match rules, read-only checks), after a warm-up.
 */
export async function benchCommandAnalysis(rounds = Number(process.env.BENCH_RUNS ?? 200)) {
  const loadStart = performance.now();
  await loadShellParser();
  const parserLoadMs = performance.now() - loadStart;
  const paths = createPathContext("/work/project");
  const decide = (line: string) =>
    decideCommandLine(analyzeCommand(line), {
      rules: RULES,
      paths,
      readOnlyAllowed: true,
      allCommands: false,
      readOutside: false,
      editInside: false,
    });
  for (let i = 0; i < 50; i++) for (const line of TYPICAL_LINES) decide(line);
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const line of TYPICAL_LINES) {
      const start = performance.now();
      decide(line);
      samples.push(performance.now() - start);
    }
  }
  const medianMs = round(median(samples), 3);
  return {
    lines: TYPICAL_LINES.length,
    samples: samples.length,
    parserLoadMs: round(parserLoadMs, 1),
    medianMs,
    p95Ms: round(percentile(samples, 95), 3),
    maxMs: round(Math.max(...samples), 3),
    targets,
    met: { medianMs: medianMs < targets.medianMs },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchCommandAnalysis(), null, 2));
}
