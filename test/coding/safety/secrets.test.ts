import { describe, expect, it } from "vitest";
import {
  createSecretMasker,
  envFileSecrets,
  environmentSecrets,
  withSecretMasking,
} from "../../../src/coding/safety/secrets.js";
import { createExecuteCommandTool } from "../../../src/coding/tools/execute-command.js";
import { createReadFileTool } from "../../../src/coding/tools/read-file.js";
import { createTempWorkspace, textOf } from "../temp-workspace.js";
import { createTestToolContext } from "../tool-context.js";

describe("secret masking", () => {
  const masker = createSecretMasker();

  it.each([
    ["sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "anthropic key"],
    ["sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "api key"],
    ["ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "github token"],
    ["github_pat_11AbCdEfGhIjKlMnOpQrStUv_wxyz0123456789", "github token"],
    ["AKIAIOSFODNN7EXAMPLE", "aws access key"],
    ["AIzaSyA-1234567890abcdefghijklmnopqrstu", "google api key"],
    ["xoxb-1234567890-abcdefghij", "slack token"],
    ["sk_live_AbCdEfGhIjKlMnOpQrStUvWx", "stripe key"],
    ["glpat-AbCdEfGhIjKlMnOpQrSt", "gitlab token"],
    ["hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456", "hugging face token"],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"],
  ])("masks %s as a %s", (secret, name) => {
    const masked = masker.mask(`value: ${secret} end`);
    expect(masked).toBe(`value: [masked ${name}] end`);
  });

  it("masks private keys, labelled random values and URL passwords, and leaves code alone", () => {
    const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----";
    expect(masker.mask(`before\n${key}\nafter`)).toBe("before\n[masked private key]\nafter");
    expect(masker.mask("DB_PASSWORD=hunter2hunter22")).toBe("DB_PASSWORD=[masked secret]");
    expect(masker.mask('"apiKey": "a8Fk29dLq0Zx7Pw3"')).toBe('"apiKey": "[masked secret]"');
    expect(masker.mask("Authorization: Bearer abcdef0123456789xyz")).toBe(
      "Authorization: Bearer [masked secret]",
    );
    expect(masker.mask("postgres://admin:s3cr3t-pw@db:5432/app")).toBe(
      "postgres://admin:[masked]@db:5432/app",
    );
    const code = "const token = process.env.GITHUB_TOKEN;\nfunction getAccessTokenFromEnv() {}";
    expect(masker.mask(code)).toBe(code);
  });

  it("masks the values of .env files and of credential variables, wherever they appear", async () => {
    const temp = await createTempWorkspace({
      ".env":
        "DATABASE_URL=postgres://u:pw@h/db\nexport SESSION_SECRET='correct horse battery'\nDEBUG=true\n",
      ".env.example": "SESSION_SECRET=changeme-example-value\n",
      "config.txt": "secret is correct horse battery; debug true; changeme-example-value\n",
    });
    try {
      const values = [
        ...envFileSecrets(temp.root),
        ...environmentSecrets({ MY_API_KEY: "plainvalue123", HOME: "/root" }),
      ];
      expect(values).toEqual(["postgres://u:pw@h/db", "correct horse battery", "plainvalue123"]);
      const read = withSecretMasking(
        createReadFileTool({ workspace: temp.workspace }),
        createSecretMasker(values),
      );
      const text = textOf((await read.execute({ path: "config.txt" }, createTestToolContext().ctx)).content);
      expect(text).toMatch(/secret is \[masked secret\]; debug true; changeme-example-value/);
    } finally {
      await temp.remove();
    }
  });

  it("masks command output as it streams and in the result", async () => {
    const temp = await createTempWorkspace();
    try {
      const tool = withSecretMasking(
        createExecuteCommandTool({ workspace: temp.workspace, inputWaitMs: 0 }),
        masker,
      );
      const { ctx, progress } = createTestToolContext();
      const result = await tool.execute(
        { command: "echo key=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345" },
        ctx,
      );
      expect(textOf(result.content)).toMatch(/key=\[masked anthropic key\]/);
      expect(progress.join("")).not.toMatch(/AbCdEfGh/);
      expect(tool.name).toBe("execute_command");
    } finally {
      await temp.remove();
    }
  });
});
