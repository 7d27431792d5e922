/**
 * Places on a pool's workers given out in turns between lanes (one lane per caller: an HTTP
 * request, a task's preparation). A request waits in its lane's line; when a place frees, the
 * waiting lane served longest ago sends its first request, so a caller with a thousand queued
 * queries holds up another caller's one query by at most one query per place, not by all
 * thousand. Requests of one lane run in the order they came.
 *
 * Hand-written: p-queue and p-limit keep one line (first come, first served, with fixed
 * priorities); none takes turns between callers, and a request whose signal aborts must leave
 * its line without running.
 */
export class Turns {
  /** Lanes with requests waiting. */
  private readonly lines = new Map<object, Array<() => void>>();
  /** When each lane was last given a place: the free place goes to the lane waiting that was served longest ago. */
  private readonly servedAt = new WeakMap<object, number>();
  private served = 0;
  private inUse = 0;

  constructor(private readonly places: number) {}

  /** Requests waiting for a place. */
  get waiting(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  /** `work`'s result once `lane` has a place; undefined when `signal` aborted first. */
  async take<R>(lane: object, signal: AbortSignal | undefined, work: () => Promise<R>): Promise<R | undefined> {
    if (signal?.aborted) return undefined;
    if (this.inUse < this.places && this.lines.size === 0) {
      this.inUse++;
      this.servedAt.set(lane, ++this.served);
    } else if (!(await this.wait(lane, signal))) return undefined;
    try {
      return await work();
    } finally {
      this.inUse--;
      this.next();
    }
  }

  /** Joins `lane`'s line; true once given a place (counted in `inUse`), false when `signal` aborted. */
  private wait(lane: object, signal: AbortSignal | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      const go = () => {
        signal?.removeEventListener('abort', leave);
        resolve(true);
      };
      const leave = () => {
        const line = this.lines.get(lane);
        const at = line?.indexOf(go) ?? -1;
        if (at >= 0) line!.splice(at, 1);
        if (line?.length === 0) this.lines.delete(lane);
        resolve(false);
      };
      const line = this.lines.get(lane);
      if (line) line.push(go);
      else this.lines.set(lane, [go]);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  /** Gives the free places to the lanes in turn: each to the waiting lane served longest ago. */
  private next(): void {
    while (this.inUse < this.places && this.lines.size > 0) {
      let lane: object | undefined;
      for (const waiting of this.lines.keys())
        if (lane === undefined || (this.servedAt.get(waiting) ?? 0) < (this.servedAt.get(lane) ?? 0)) lane = waiting;
      const line = this.lines.get(lane!)!;
      const go = line.shift()!;
      if (line.length === 0) this.lines.delete(lane!);
      this.servedAt.set(lane!, ++this.served);
      this.inUse++;
      go();
    }
  }
}
