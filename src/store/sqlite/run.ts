/** Runs a synchronous database step as an async port call (waiting for an open transaction when needed). */
export type Run = <T>(work: () => T) => Promise<T>;
