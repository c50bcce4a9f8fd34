/**
 * Why a stored task cannot be read. Hosts stop with the message (it names the file and line);
 * `code` is stable for programs.
 * - `task_not_found`: no folder for the id.
 * - `invalid_task_id`: the id is not a plain folder name (path separators, `..`).
 * - `corrupt_journal`: a line other than the last of a file is not a valid record, or task.json
 *   is unreadable.
 * - `unsupported_version`: a record was written by a newer Bowline.
 * - `broken_chain`: an entry, rewind or fork points at an entry or task that does not exist.
 * - `has_forks`: a task other tasks were forked from cannot be deleted before them.
 */
export type SessionErrorCode =
  | "task_not_found"
  | "invalid_task_id"
  | "corrupt_journal"
  | "unsupported_version"
  | "broken_chain"
  | "has_forks";

export class SessionLoadError extends Error {
  constructor(
    readonly code: SessionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SessionLoadError";
  }
}
