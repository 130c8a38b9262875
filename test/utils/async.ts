/** A signal that never aborts. */
export const never = (): AbortSignal => new AbortController().signal;

/** Awaits `p` and returns its rejection; throws when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}
