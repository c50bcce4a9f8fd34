/**
 * Collects a growing text from many small pieces. Appending with `+=` builds a V8 rope with
 * one node per piece, which the garbage collector then copies and walks again and again.
 * Here pieces are joined in runs of `RUN`, and the runs are joined when the value is read
 * and added to the value read before: each character is copied at most twice, and a read
 * costs time for the text appended since the previous read only.
 */
export interface TextAccumulator {
  append(text: string): void;
  /** The whole text so far. */
  value(): string;
}

const RUN = 256;

export function createTextAccumulator(): TextAccumulator {
  let pieces: string[] = [];
  let runs: string[] = [];
  let head = ""; // the text up to the previous read
  let fresh = true; // nothing appended since that read
  return {
    append(text) {
      pieces.push(text);
      fresh = false;
      if (pieces.length < RUN) return;
      runs.push(pieces.join(""));
      pieces = [];
    },
    value() {
      if (fresh) return head;
      runs.push(pieces.join(""));
      head += runs.length === 1 ? runs[0] : runs.join("");
      pieces = [];
      runs = [];
      fresh = true;
      return head;
    },
  };
}
