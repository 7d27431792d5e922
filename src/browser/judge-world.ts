/**
 * The judge's own world in a page: a CDP isolated world of the page's main frame, where the
 * DOM is the page's but every JavaScript object — `document`, the prototypes of `Element` and
 * `Node`, `getComputedStyle`, `window` itself — is a fresh one of the browser's. Nothing the
 * page's scripts define or patch (prototypes, getters, Proxies, a `window.axe` of its own) is
 * seen here, and a read here runs none of the page's code, so the page cannot learn when it is
 * read. Every judged reading of a page (a game's DOM, a document's layout and axe-core's
 * findings) goes through this; the page's own world is only acted on (clicks, keys).
 */
import type { CDPSession, Page } from 'playwright-core';

/** The world's name: it is visible to no script of the page's. */
const WORLD = 'crucible-judge';

export class JudgeWorld {
  private context: Promise<number> | undefined;

  private constructor(private readonly cdp: CDPSession) {}

  static async open(page: Page): Promise<JudgeWorld> {
    return new JudgeWorld(await page.context().newCDPSession(page));
  }

  /**
   * `expression`'s value, as JSON (awaited when it is a promise); a thrown error is thrown here
   * with the page's message. A document replaced since the last read gets a new world (state
   * kept on the world's `window` between reads is then gone, as the document is).
   */
  async evaluate<T>(expression: string): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const contextId = await (this.context ??= this.create());
      let answer;
      try {
        answer = await this.cdp.send('Runtime.evaluate', {
          expression,
          contextId,
          returnByValue: true,
          awaitPromise: true,
        });
      } catch (error) {
        if (attempt > 0 || !/Cannot find context/i.test((error as Error).message)) throw error;
        this.context = undefined;
        continue;
      }
      if (answer.exceptionDetails) {
        const details = answer.exceptionDetails;
        throw new Error(`in the judge's world: ${details.exception?.description ?? details.text}`);
      }
      return answer.result.value as T;
    }
  }

  private async create(): Promise<number> {
    const { frameTree } = await this.cdp.send('Page.getFrameTree');
    const { executionContextId } = await this.cdp.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: WORLD,
      grantUniveralAccess: false,
    });
    return executionContextId;
  }
}
