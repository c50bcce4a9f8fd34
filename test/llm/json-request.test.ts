/**
 * Request bodies built from pieces kept between turns: the same JSON as JSON.stringify gives,
 * whatever the conversation holds, with each settled message serialised once however many
 * requests carry it, and nothing stale after the conversation is replaced (a compaction).
 */
import { describe, expect, it } from "vitest";
import { jsonRequestBody } from "../../src/llm/json-request.js";

/** A wire message that counts how often it is serialised. */
function counted(index: number, text: string) {
  const message = {
    role: index % 2 ? "assistant" : "user",
    content: [{ type: "text", text }],
    serialised: 0,
    toJSON() {
      message.serialised++;
      return { role: message.role, content: message.content };
    },
  };
  return message;
}

const plain = (message: ReturnType<typeof counted>) => ({ role: message.role, content: message.content });

const parse = async (body: Blob) => JSON.parse(await body.text());

describe("jsonRequestBody", () => {
  it("gives the JSON of the fields and the list, with any characters", async () => {
    const messages = [
      {
        role: "user",
        content: [{ type: "text", text: "Entries marked 🔒 are blocked — “quoted”, 日本語, \u2028 too." }],
      },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "read", input: { path: 'a\\b"c' } }],
      },
    ];
    const fields = {
      model: "m",
      max_tokens: 100,
      stream: true,
      system: [{ type: "text", text: "sys" }],
      skipped: undefined,
    };
    const body = jsonRequestBody(fields, "messages", messages);

    expect(body.type).toBe("application/json");
    expect(await parse(body)).toEqual({
      model: "m",
      max_tokens: 100,
      stream: true,
      system: fields.system,
      messages,
    });
    expect(body.size).toBe(new TextEncoder().encode(await body.text()).byteLength);
    expect(await parse(jsonRequestBody({}, "messages", []))).toEqual({ messages: [] });
  });

  it("serialises each message once over a long conversation", async () => {
    const history: Array<ReturnType<typeof counted>> = [];
    for (let turn = 0; turn < 400; turn++) {
      history.push(counted(turn, `Turn ${turn}: ${"some output of a tool, ".repeat(20)}`));
      const body = jsonRequestBody({ model: "m" }, "messages", history);
      if (turn % 50 === 0 || turn === 399) {
        expect(await parse(body)).toEqual({ model: "m", messages: history.map(plain) });
      }
    }
    expect(history.map((message) => message.serialised)).toEqual(history.map(() => 1));
  });

  it("uses no block of an earlier conversation once the messages are replaced", async () => {
    const first = Array.from({ length: 200 }, (_, i) => counted(i, `old ${i} ${"x".repeat(400)}`));
    await jsonRequestBody({}, "messages", first).text();
    // A compaction: the first message is kept, the rest replaced by new objects.
    const compacted = [
      first[0]!,
      ...Array.from({ length: 150 }, (_, i) => counted(i + 1, `new ${i} ${"y".repeat(400)}`)),
    ];
    expect(await parse(jsonRequestBody({}, "messages", compacted))).toEqual({
      messages: compacted.map(plain),
    });
    // A rewind: the same objects, fewer of them.
    const rewound = first.slice(0, 120);
    expect(await parse(jsonRequestBody({}, "messages", rewound))).toEqual({ messages: rewound.map(plain) });
  });
});
