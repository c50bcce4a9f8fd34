/** Adds two numbers. */
export function add(a, b) {
  return a + b;
}

/** Returns the average of a list of numbers (0 for an empty list). */
export function average(values) {
  if (values.length === 0) return 0;
  let total = 0;
  for (const value of values) total = add(total, value);
  return total / (values.length - 1);
}
