/** What a permission check concluded, with the reason shown to the person and the model. */
export type Decision = "allow" | "ask" | "deny";

/**
 * One decision with its reason. A `firm` ask cannot be turned into an allow by the sandbox or
 * by settings (an ask rule, a protected path, something not understood); only YOLO runs it.
 */
export interface Decided {
  decision: Decision;
  reason: string;
  /** The rule that decided, as `deny execute_command(rm) (user settings)`. */
  rule?: string;
  firm?: boolean;
  /** The command might be one a deny rule names (YOLO denies it rather than run it). */
  suspect?: boolean;
}

export const firmAsk = (reason: string, rule?: string): Decided => ({
  decision: "ask",
  reason,
  firm: true,
  ...(rule ? { rule } : {}),
});
export const ask = (reason: string): Decided => ({ decision: "ask", reason });
export const allow = (reason: string, rule?: string): Decided => ({
  decision: "allow",
  reason,
  ...(rule ? { rule } : {}),
});
