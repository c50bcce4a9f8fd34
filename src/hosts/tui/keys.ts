import type { Key } from "ink";
import type { TuiController } from "./controller.js";
import * as edit from "./editor.js";
import { type AttachedImage, clipboardImage, pastedImagePath, readImageFile } from "./images.js";
import type { InputModel } from "./input-model.js";
import type { TuiStore } from "./store.js";

/** Completions for the word at the cursor: `@path` mentions or `/commands`. */
export interface Completion {
  /** Where the word being completed starts. */
  start: number;
  items: string[];
}

export interface KeyHandlerOptions {
  input: InputModel;
  store: TuiStore;
  controller: TuiController;
  completions(draft: edit.Draft): Completion | undefined;
  /** `v` during an approval: prints the whole preview to the scrollback. */
  printPreview(): void;
  exit(): void;
  now?: () => number;
  /** The workspace: relative image paths are read from it. */
  cwd: string;
  /** Reads the clipboard's image (Ctrl-V); default: the system's clipboard tool. */
  clipboard?: () => AttachedImage | undefined;
}

/** Two Ctrl-C within this time exit. */
const DOUBLE_PRESS_MS = 2000;

/**
 * Every key of the interface, in one place: what it does depends on what is open (an
 * approval, a question, the completion menu) and on the draft. Pastes arrive bracketed
 * (`ESC[200~` … `ESC[201~`) when the terminal supports it, or as one multi-line chunk.
 */
export function createKeyHandler(options: KeyHandlerOptions): (input: string, key: Key) => void {
  const { input: model, store, controller } = options;
  const now = options.now ?? Date.now;
  let lastCtrlC = Number.NEGATIVE_INFINITY;
  let pasting: string | undefined;

  const draft = () => model.get().draft;
  const menu = () => {
    const state = model.get();
    const completion = state.menuClosed ? undefined : options.completions(state.draft);
    return completion && completion.items.length > 0 ? completion : undefined;
  };
  const accept = (completion: Completion) => {
    const item = completion.items[Math.min(model.get().selected, completion.items.length - 1)]!;
    const current = edit.wordAtCursor(draft()).word;
    if (item === current) return false;
    model.edit(edit.replaceWord(draft(), completion.start, item.endsWith("/") ? item : `${item} `));
    return true;
  };
  const submit = () => {
    const text = edit.expand(draft());
    if (model.get().feedback) {
      model.set({ feedback: false });
      model.edit(edit.EMPTY_DRAFT);
      return controller.deny(text.trim() || undefined);
    }
    if (!text.trim()) return;
    const images = edit.imagesIn(draft());
    model.history.push(draft().text);
    model.edit(edit.EMPTY_DRAFT);
    controller.submit(text, images);
  };

  /** A paste that names one image file attaches the image; any other paste is text. */
  const pasteText = (text: string) => {
    const imagePath = pastedImagePath(text, options.cwd);
    if (!imagePath) return model.edit(edit.paste(draft(), text));
    try {
      model.edit(edit.attachImage(draft(), readImageFile(imagePath)));
    } catch (error) {
      model.set({ hint: (error as Error).message });
    }
  };

  const pasteClipboardImage = () => {
    const attached = (options.clipboard ?? clipboardImage)();
    if (attached) model.edit(edit.attachImage(draft(), attached));
    else model.set({ hint: "No image on the clipboard (or no clipboard tool: wl-paste, xclip, pngpaste)." });
  };

  /** Keys of an open approval (or budget question): single letters, no typing. */
  const approvalKey = (input: string): void => {
    const ask = store.get().ask!;
    if (input === "y") controller.approve(false);
    else if (input === "a" && ask.payload.ask === "tool_approval") controller.approve(true);
    else if (input === "n") controller.deny();
    else if (input === "f" && ask.payload.ask === "tool_approval") model.set({ feedback: true });
    else if (input === "v") options.printPreview();
  };

  return (input, key) => {
    if (pasting !== undefined || input === "[200~") {
      pasting = (pasting ?? "") + (input === "[200~" ? "" : key.return ? "\n" : input);
      if (!pasting.endsWith("[201~")) return;
      const pasted = pasting.slice(0, -"[201~".length);
      pasting = undefined;
      pasteText(pasted);
      return;
    }
    if (key.ctrl && input === "c") {
      if (now() - lastCtrlC < DOUBLE_PRESS_MS) return options.exit();
      lastCtrlC = now();
      if (draft().text) model.edit(edit.EMPTY_DRAFT);
      else controller.interrupt();
      model.set({ hint: "Press Ctrl-C again to exit" });
      return;
    }
    if (key.ctrl && input === "d")
      return draft().text ? model.edit(edit.deleteForward(draft())) : options.exit();
    const state = model.get();
    const ask = store.get().ask;
    const open = menu();
    if (key.escape) {
      if (state.feedback) return model.set({ feedback: false });
      if (open) return model.set({ menuClosed: true });
      return controller.interrupt();
    }
    if (key.ctrl && input === "o") return controller.showLastTool();
    if (key.ctrl && input === "l") return controller.clearScreen();
    if (key.ctrl && input === "v" && !ask) return pasteClipboardImage();
    const modal = ask && (ask.payload.ask === "tool_approval" || ask.payload.ask === "limit_reached");
    if (modal && !state.feedback) return approvalKey(input);
    if (key.tab) return open ? void accept(open) : controller.toggleMode();
    if (key.return && !key.meta) {
      if (open && accept(open)) return;
      const text = draft().text;
      if (text.endsWith("\\")) return model.edit(edit.insert(edit.backspace(draft()), "\n"));
      return submit();
    }
    if ((key.return && key.meta) || input === "\n") return model.edit(edit.insert(draft(), "\n"));
    if (key.upArrow || key.downArrow) {
      if (open) {
        const step = key.upArrow ? -1 : 1;
        return model.set({ selected: (state.selected + step + open.items.length) % open.items.length });
      }
      const moved = key.upArrow ? edit.up(draft()) : edit.down(draft());
      if (moved) return model.edit(moved);
      return void (key.upArrow ? model.history.previous() : model.history.next());
    }
    const motion = motionFor(input, key);
    if (motion) return model.edit(motion(draft()));
    if (!input || key.ctrl || key.meta) return;
    if (!draft().text && /^[1-9]$/.test(input) && pickNumber(Number(input))) return;
    if (!draft().text && input === "n" && ask?.payload.ask === "mistake_limit") return controller.deny();
    if (input.length > 1 && pastedImagePath(input, options.cwd)) return pasteText(input);
    if (input.length > 1 && /[\r\n]/.test(input)) {
      // One line and Enter in one chunk was typed ahead while the process was busy (at start-up,
      // say): it is sent. Pastes come bracketed; a terminal without bracketed paste sends
      // several lines as one chunk, and those are kept as a paste.
      const typedAhead = /^([^\r\n]+)\r$/.exec(input)?.[1];
      if (typedAhead === undefined) return pasteText(input);
      model.edit(edit.insert(draft(), typedAhead));
      return submit();
    }
    model.edit(edit.insert(draft(), input));
  };

  /** A number on an empty line picks an option of the open question or of the last plan. */
  function pickNumber(n: number): boolean {
    const ask = store.get().ask;
    if (ask?.payload.ask === "followup") {
      const option = ask.payload.options?.[n - 1];
      if (option === undefined) return false;
      controller.submit(option);
      return true;
    }
    return controller.pickOption(n);
  }
}

type Motion = (draft: edit.Draft) => edit.Draft;

function motionFor(input: string, key: Key): Motion | undefined {
  if (key.leftArrow) return edit.left;
  if (key.rightArrow) return edit.right;
  if (key.home || (key.ctrl && input === "a")) return edit.lineStart;
  if (key.end || (key.ctrl && input === "e")) return edit.lineEnd;
  // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`.
  if (key.backspace || key.delete) return edit.backspace;
  if (key.ctrl && input === "u") return edit.killBefore;
  if (key.ctrl && input === "k") return edit.killAfter;
  if (key.ctrl && input === "w") return edit.deleteWord;
  return undefined;
}
