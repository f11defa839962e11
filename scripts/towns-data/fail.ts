/** Stops the generator with a message naming it. */
export function fail(message: string): never {
  throw new Error(`build-towns-data: ${message}`);
}
