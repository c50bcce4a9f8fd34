/** Images attached in the input box: a pasted image path, or the clipboard (Ctrl-V). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { attachImage, backspace, draftOf, imagesIn } from "../../../src/hosts/tui/editor.js";
import { pastedImagePath } from "../../../src/hosts/tui/images.js";
import { KEYS, type MountedTui, mountTui } from "./harness.js";

/** The smallest valid PNG: 1×1, one transparent pixel. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

let t: MountedTui | undefined;
afterEach(() => t?.unmount());

describe("attached images in the draft", () => {
  const attached = { label: "shot.png", image: { mediaType: "image/png" as const, data: "AAAA" } };

  it("a placeholder stands for the image; deleting it drops the image", () => {
    const draft = attachImage(draftOf("look at "), attached);
    expect(draft.text).toBe("look at [Image #1: shot.png]");
    expect(imagesIn(draft)).toEqual([attached.image]);
    const erased = backspace(draft);
    expect(erased.text).toBe("look at ");
    expect(imagesIn(erased)).toEqual([]);
  });

  it("recognises an image path however the terminal pasted it, and nothing else", () => {
    const t0 = mountTui();
    const cwd = t0.cwd;
    t0.unmount();
    writeFileSync(join(cwd, "my shot.png"), PNG);
    writeFileSync(join(cwd, "notes.txt"), "text");
    for (const pasted of ["my\\ shot.png", "'my shot.png'", `file://${encodeURI(join(cwd, "my shot.png"))}`])
      expect(pastedImagePath(pasted, cwd)).toBe(join(cwd, "my shot.png"));
    expect(pastedImagePath("notes.txt", cwd)).toBeUndefined();
    expect(pastedImagePath("missing.png", cwd)).toBeUndefined();
    expect(pastedImagePath("my shot.png\nand more", cwd)).toBeUndefined();
  });
});

describe("images in the TUI", () => {
  it("a pasted image path becomes an attachment sent with the task", async () => {
    t = mountTui();
    writeFileSync(join(t.cwd, "screen.png"), PNG);
    await t.type("What is wrong here? ", KEYS.pasteStart, "screen.png", KEYS.pasteEnd);
    expect(t.frame()).toContain("What is wrong here? [Image #1: screen.png]");
    await t.type(KEYS.enter);
    expect(t.runs).toEqual(["What is wrong here? [Image #1: screen.png]"]);
    expect(t.runImages).toEqual([[{ mediaType: "image/png", data: PNG.toString("base64") }]]);
  });

  it("a file that only claims to be an image is not attached, and the person is told", async () => {
    t = mountTui();
    writeFileSync(join(t.cwd, "fake.png"), "not a png");
    await t.type(KEYS.pasteStart, "fake.png", KEYS.pasteEnd);
    expect(t.frame()).toContain("fake.png is not a PNG, JPEG, GIF or WebP image: not attached.");
    expect(t.tui.input.get().draft.text).toBe("");
  });

  it("Ctrl-V attaches the clipboard's image, or says there is none", async () => {
    const images = [{ label: "clipboard", image: { mediaType: "image/png" as const, data: "QUJD" } }];
    t = mountTui({ clipboard: () => images.shift() });
    await t.type("\x16");
    expect(t.frame()).toContain("[Image #1: clipboard]");
    await t.type("\x16");
    expect(t.frame()).toContain("No image on the clipboard");
  });
});
