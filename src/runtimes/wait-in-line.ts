/**
 * Waits for the next resource handed to `line` (a pool's waiting list of takers), or gives up
 * when `signal` aborts: the taker then leaves the line, so nothing is handed to a request that
 * nobody waits for. Shared by the slot pool and the program pool.
 */
export function waitInLine<T>(line: Array<(resource: T) => void>, signal: AbortSignal | undefined): Promise<T | undefined> {
  return new Promise((resolve) => {
    const take = (resource: T) => {
      signal?.removeEventListener('abort', leave);
      resolve(resource);
    };
    const leave = () => {
      const at = line.indexOf(take);
      if (at >= 0) line.splice(at, 1);
      resolve(undefined);
    };
    line.push(take);
    signal?.addEventListener('abort', leave, { once: true });
  });
}
