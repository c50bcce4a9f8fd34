/** A file's identity for "has it changed": modification time (ns) and size. */
export interface FileStamp {
  mtimeNs: bigint;
  size: bigint;
}

/** A successful read remembered for one key (task, path and range). */
export interface MemoEntry<T> {
  stamp: FileStamp;
  /** When the read happened. */
  at: Date;
  /** What the read returned, as the caller wants to recall it (e.g. the lines shown). */
  value: T;
}

/**
 * Remembers which reads a task has already seen, so an identical re-read of an unchanged file can
 * answer with a short note. `takeUnchanged` forgets the entry it returns: asking once more gets
 * the content again, which is how a model whose earlier result was dropped recovers it.
 */
export interface ReadMemo<T> {
  /** The earlier read under `key` when the file still has `stamp`; that entry is then forgotten. */
  takeUnchanged(key: string, stamp: FileStamp): MemoEntry<T> | undefined;
  remember(key: string, stamp: FileStamp, value: T): void;
}

export function createReadMemo<T>(now: () => Date = () => new Date()): ReadMemo<T> {
  const entries = new Map<string, MemoEntry<T>>();
  return {
    takeUnchanged(key, stamp) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      const same = entry.stamp.mtimeNs === stamp.mtimeNs && entry.stamp.size === stamp.size;
      return same ? entry : undefined;
    },
    remember(key, stamp, value) {
      entries.set(key, { stamp, at: now(), value });
    },
  };
}
