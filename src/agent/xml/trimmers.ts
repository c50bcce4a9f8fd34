/**
 * Streaming trimmers: they see a value or a text in arbitrary pieces and hold back only what
 * the next piece could still make disappear, so the result never depends on where the
 * pieces were cut. Each piece is inspected a bounded number of times.
 */

/** Counts character inspections (see `XmlParserStats.charsExamined`). */
export interface WorkCounter {
  examined: number;
}

export interface StreamTrimmer {
  /** Returns the text that can be shown now ("" while everything is held back). */
  push(piece: string): string;
  /** Returns what is still held, trimmed as the end requires. */
  finish(trimEnd: boolean): string;
}

const LF = 10;
const CR = 13;

/** ASCII whitespace; other Unicode spaces count as visible text. */
export function isBlank(code: number): boolean {
  return code === 32 || code === LF || code === CR || code === 9 || code === 11 || code === 12;
}

function trailingNewlineLength(text: string): number {
  const last = text.charCodeAt(text.length - 1);
  if (last === LF) return text.length >= 2 && text.charCodeAt(text.length - 2) === CR ? 2 : 1;
  return last === CR ? 1 : 0;
}

/**
 * Parameter values: drops one leading newline (`\n` or `\r\n`) and, when `finish(true)`, one
 * trailing newline. Holds back at most two characters.
 */
export function createValueTrimmer(counter: WorkCounter): StreamTrimmer {
  let leadDone = false;
  let leadCr = false; // the value so far is a lone "\r": a CRLF may be starting
  let tail = "";
  return {
    push(piece) {
      let text = piece;
      if (!leadDone) {
        if (leadCr) text = `\r${text}`;
        if (text === "") return "";
        if (text === "\r") {
          leadCr = true;
          return "";
        }
        leadDone = true;
        leadCr = false;
        counter.examined += 2;
        if (text.charCodeAt(0) === LF) text = text.slice(1);
        else if (text.charCodeAt(0) === CR && text.charCodeAt(1) === LF) text = text.slice(2);
        if (text === "") return "";
      }
      const joined = tail === "" ? text : tail + text;
      counter.examined += 2;
      const hold = trailingNewlineLength(joined);
      tail = hold === 0 ? "" : joined.slice(joined.length - hold);
      return hold === 0 ? joined : joined.slice(0, joined.length - hold);
    },
    finish(trimEnd) {
      if (leadCr) {
        leadCr = false;
        return "\r"; // a lone CR is not a newline
      }
      const held = tail;
      tail = "";
      return held === "\r" || !trimEnd ? held : "";
    },
  };
}

/**
 * Text around tool calls. Nothing is shown until a visible character arrives, so a text
 * that is only whitespace never becomes a block. With `afterTool`, the blank lines that
 * follow the tool's closing tag are dropped: leading whitespace up to and including its last
 * line break (indentation of the first line stays). `finish(true)` (a tool call follows)
 * drops the trailing whitespace from the first line break after the last visible character.
 * Everything else is kept verbatim. Holds back leading whitespace and the trailing run of
 * whitespace that starts with a line break.
 */
export function createTextTrimmer(afterTool: boolean, counter: WorkCounter): StreamTrimmer {
  let visible = false;
  let lead = ""; // whitespace before the first visible character
  let tail = ""; // trailing whitespace starting at a line break
  /** Splits off whitespace that begins at a line break and runs to the end of `ws`. */
  const holdFromBreak = (ws: string): string => {
    for (let i = 0; i < ws.length; i++) {
      counter.examined++;
      const code = ws.charCodeAt(i);
      if (code === LF || code === CR) {
        tail = ws.slice(i);
        return ws.slice(0, i);
      }
    }
    return ws;
  };
  return {
    push(piece) {
      let last = piece.length - 1;
      while (last >= 0 && isBlank(piece.charCodeAt(last))) last--;
      counter.examined += piece.length - last;
      if (last < 0) {
        // Only whitespace: it joins whatever is being held.
        if (!visible) lead += piece;
        else if (tail !== "") tail += piece;
        else return holdFromBreak(piece);
        return "";
      }
      let out: string;
      if (!visible) {
        visible = true;
        let first = 0;
        while (isBlank(piece.charCodeAt(first))) first++;
        counter.examined += first + 1;
        const leading = lead + piece.slice(0, first);
        lead = "";
        if (afterTool) counter.examined += leading.length;
        out = (afterTool ? dropBlankLines(leading) : leading) + piece.slice(first, last + 1);
      } else {
        out = tail + piece.slice(0, last + 1);
        tail = "";
      }
      return out + holdFromBreak(piece.slice(last + 1));
    },
    finish(trimEnd) {
      const held = visible && !trimEnd ? tail : "";
      tail = "";
      lead = "";
      return held;
    },
  };
}

/** Whitespace after its last line break (the indentation of the next line). */
function dropBlankLines(ws: string): string {
  const lastBreak = Math.max(ws.lastIndexOf("\n"), ws.lastIndexOf("\r"));
  return ws.slice(lastBreak + 1);
}
