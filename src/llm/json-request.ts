/**
 * Request bodies as a Blob built from pieces kept between turns. An SDK left to itself
 * serialises the whole conversation on every request: JSON.stringify of every message, then
 * fetch's copies of that text (a second two-byte copy as soon as one character is outside
 * Latin-1, and a UTF-8 copy the size of the request). Over a long task that garbage grows with
 * the square of its length, much of it large enough to go straight to the old generation, and
 * resident memory grows with it. Here the settled part of the conversation is serialised once,
 * into blocks of about SEGMENT_BYTES; a request is a Blob composed of those blocks and the few
 * recent messages (composing Blobs copies nothing), which fetch streams block by block with its
 * length known.
 */

/** The rough size of a block of settled messages (fetch writes each block as one chunk). */
const SEGMENT_BYTES = 16 * 1024;
/**
 * The latest messages are never put in a block: adapters send copies of them (cache
 * breakpoints) that change from turn to turn.
 */
const TAIL_ITEMS = 6;

/** A block of settled messages: the wire objects it covers (checked by identity) and their JSON. */
interface Segment {
  items: readonly object[];
  blob: Blob;
}

/**
 * Blocks by their first wire message. Adapters convert each history message once, so its wire
 * objects stay the same from turn to turn and a block is found again by them; a compaction or
 * a rewind makes new objects or a shorter list, and blocks that no longer match are not used.
 */
const segments = new WeakMap<object, Segment>();
/** The JSON of messages not yet in a block, until they are. */
const pending = new WeakMap<object, string>();
/** The JSON of object-valued top-level fields (system prompt, tools), by value. */
const fieldBlobs = new WeakMap<object, Blob>();

const json = (value: unknown): string => JSON.stringify(value);

/** The cached block starting at `items[at]`, when it still matches and ends among settled items. */
function segmentAt(items: readonly object[], at: number, settled: number): Segment | undefined {
  const segment = segments.get(items[at]!);
  if (!segment || at + segment.items.length > settled) return undefined;
  for (let i = 0; i < segment.items.length; i++) if (items[at + i] !== segment.items[i]) return undefined;
  return segment;
}

/** `items` as JSON array elements: cached blocks where they match, new blocks where a run filled one. */
function itemPieces(items: readonly object[]): Array<Blob | string> {
  const pieces: Array<Blob | string> = [];
  const settled = items.length - TAIL_ITEMS;
  let run: string[] = [];
  let runStart = 0;
  let runBytes = 0;
  const flush = () => {
    if (run.length > 0) pieces.push(run.join(""));
    run = [];
    runBytes = 0;
  };
  for (let i = 0; i < items.length; ) {
    const cached = i < settled ? segmentAt(items, i, settled) : undefined;
    if (cached) {
      flush();
      pieces.push(cached.blob);
      i += cached.items.length;
      continue;
    }
    if (run.length === 0) runStart = i;
    const item = items[i]!;
    let text = pending.get(item);
    if (text === undefined) {
      text = json(item);
      pending.set(item, text);
    }
    // Every element but the last is followed by a comma; the last is never in a block.
    if (i < items.length - 1) text += ",";
    run.push(text);
    runBytes += text.length;
    i++;
    if (i <= settled && runBytes >= SEGMENT_BYTES) {
      // One string, so the block is one piece of memory and one chunk on the wire.
      const segment = { items: items.slice(runStart, i), blob: new Blob([run.join("")]) };
      segments.set(items[runStart]!, segment);
      for (const done of segment.items) pending.delete(done);
      pieces.push(segment.blob);
      run = [];
      runBytes = 0;
    }
  }
  flush();
  return pieces;
}

/** Object-valued fields this long or longer are kept between requests (system prompt, tools). */
const KEPT_FIELD_CHARS = 1024;

/** A top-level field's value as JSON; a long object's is kept for the next request with the same object. */
function fieldPiece(value: unknown): Blob | string {
  if (typeof value !== "object" || value === null) return json(value);
  const kept = fieldBlobs.get(value);
  if (kept) return kept;
  const text = json(value);
  if (text.length < KEPT_FIELD_CHARS) return text;
  const blob = new Blob([text]);
  fieldBlobs.set(value, blob);
  return blob;
}

/**
 * The JSON body `{...fields, [key]: items}` as an application/json Blob. `items` are the
 * wire-format messages: those that are the same objects as in earlier requests are serialised
 * once, so they must not change once passed (a changed message is a new object). Long
 * object-valued fields are kept by value the same way. The text is what JSON.stringify would
 * give, with the list as the last field.
 */
export function jsonRequestBody(
  fields: Record<string, unknown>,
  key: string,
  items: readonly object[],
): Blob {
  // Adjacent text goes in one part: fetch writes each part as a chunk of its own.
  const parts: Array<Blob | string> = [];
  let text = "{";
  const add = (piece: Blob | string) => {
    if (typeof piece === "string") {
      text += piece;
      return;
    }
    parts.push(text, piece);
    text = "";
  };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || name === key) continue;
    add(`${json(name)}:`);
    add(fieldPiece(value));
    add(",");
  }
  add(`${json(key)}:[`);
  for (const piece of itemPieces(items)) add(piece);
  add("]}");
  parts.push(text);
  return new Blob(parts, { type: "application/json" });
}
