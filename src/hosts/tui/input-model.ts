import { type Draft, draftOf, EMPTY_DRAFT, wordAtCursor } from "./editor.js";

/** The input box's state, outside React so that several keys in one read see each other's edits. */
export interface InputState {
  draft: Draft;
  /** True while the person types the feedback of a denial. */
  feedback: boolean;
  /** The highlighted completion. */
  selected: number;
  /** The completion menu was closed with Esc; it opens again when the text changes. */
  menuClosed: boolean;
  /** A one-line hint under the box (e.g. "Press Ctrl-C again to exit"). */
  hint?: string;
}

export interface InputModel {
  get(): InputState;
  subscribe(listener: () => void): () => void;
  set(next: Partial<InputState>): void;
  /** Replaces the draft (the completion menu follows the new text). */
  edit(draft: Draft): void;
  /** Up/down through what was sent before; the draft being written is kept at the end. */
  history: {
    push(text: string): void;
    previous(): boolean;
    next(): boolean;
  };
}

export function createInputModel(): InputModel {
  let state: InputState = { draft: EMPTY_DRAFT, feedback: false, selected: 0, menuClosed: false };
  const listeners = new Set<() => void>();
  const entries: string[] = [];
  /** Index into entries while browsing; entries.length means "the draft being written". */
  let index = 0;
  let kept: Draft = EMPTY_DRAFT;

  const set = (next: Partial<InputState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  };
  const edit = (draft: Draft) =>
    set({
      draft,
      selected: 0,
      menuClosed: state.menuClosed && wordAtCursor(draft).word === wordAtCursor(state.draft).word,
      hint: undefined,
    });

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set,
    edit,
    history: {
      push(text) {
        if (text.trim() && entries.at(-1) !== text) entries.push(text);
        index = entries.length;
        kept = EMPTY_DRAFT;
      },
      previous() {
        if (index === 0) return false;
        if (index === entries.length) kept = state.draft;
        index--;
        edit(draftOf(entries[index]!));
        return true;
      },
      next() {
        if (index >= entries.length) return false;
        index++;
        edit(index === entries.length ? kept : draftOf(entries[index]!));
        return true;
      },
    },
  };
}
