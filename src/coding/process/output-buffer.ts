/** The output kept from a command: all of it, or its head and tail with the middle dropped. */
export interface KeptOutput {
  head: string;
  tail: string;
  /** Characters dropped between head and tail; 0 when nothing was. */
  omitted: number;
}

/**
 * Collects streamed text in bounded memory, keeping at most `limit` characters: the first half
 * and the last half of everything appended.
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private total = 0;
  private readonly headSize: number;
  private readonly tailSize: number;

  constructor(limit: number) {
    this.headSize = Math.ceil(limit / 2);
    this.tailSize = Math.floor(limit / 2);
  }

  append(text: string): void {
    this.total += text.length;
    const room = this.headSize - this.head.length;
    if (room > 0) {
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === "") return;
    this.tail += text;
    if (this.tail.length > 2 * this.tailSize) this.tail = this.lastOfTail();
  }

  /** Characters appended so far, kept or not. */
  get totalChars(): number {
    return this.total;
  }

  /** Characters held in memory: never more than 1.5 times the limit. */
  get retainedChars(): number {
    return this.head.length + this.tail.length;
  }

  kept(): KeptOutput {
    const tail = this.lastOfTail();
    return { head: this.head, tail, omitted: this.total - this.head.length - tail.length };
  }

  private lastOfTail(): string {
    return this.tail.slice(Math.max(0, this.tail.length - this.tailSize));
  }
}
