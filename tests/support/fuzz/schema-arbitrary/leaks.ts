/**
 * What an answer must never show, and so what generated text never looks like: a leak in an
 * answer can only come from the server.
 */

/**
 * What an answer must never show: a stack frame, a source path, SQL, an internal or library name.
 * SQL and error class names in their own case ("Please select an image" is not SQL); the rest in any.
 */
const LEAKS = [
  /\bat .+:\d+:\d+|\.ts\b|node_modules|relation "|violates|pglite|neon|postgres/i,
  /\b(SELECT|INSERT|UPDATE|DELETE) |TypeError|ZodError/,
];
export const leaks = (text: string): boolean => LEAKS.some((pattern) => pattern.test(text));
