/**
 * A value made on its first use and kept. For `Intl` formatters at a module's top level: making the
 * first one loads ICU's locale and time-zone data (~20 ms), which a function's cold start that
 * formats nothing should not pay (decision 0026).
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
