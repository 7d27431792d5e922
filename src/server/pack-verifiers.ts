/**
 * The packs `/v1/verify` serves by `"domain"` (domains/registry.ts): each pack's request
 * verifier, opened at its first request and closed with the server.
 */
import { BadRequestError } from '../core/errors.js';
import { requestsOf } from '../domains/line-request.js';
import { PACKS, type AnyPackModule, type RuntimeOptions } from '../domains/registry.js';
import type { PackRequests, RequestVerifier } from '../domains/request.js';

export class PackVerifiers {
  private readonly open = new Map<string, Promise<RequestVerifier>>();

  constructor(
    readonly packs: readonly AnyPackModule[] = PACKS,
    private readonly options: Partial<RuntimeOptions> = {},
    /** Verifiers made by the caller, by pack name (closed by the caller). */
    private readonly given: Readonly<Record<string, RequestVerifier>> = {},
  ) {}

  /** Each pack's request form, for the OpenAPI document. */
  forms(): { readonly name: string; readonly requests: PackRequests }[] {
    return this.packs.flatMap((module) => {
      const requests = requestsOf(module);
      return requests ? [{ name: module.name, requests }] : [];
    });
  }

  /** The body's pack and its verifier; a domain no pack here serves is a 400 that lists those that are. */
  async verifierFor(domain: string): Promise<{ readonly requests: PackRequests; readonly verifier: RequestVerifier }> {
    const forms = this.forms();
    const form = forms.find((f) => f.name === domain);
    if (!form)
      throw new BadRequestError(
        `domain ${JSON.stringify(domain).slice(0, 100)}: no pack of this server judges it; send one of ${forms.map((f) => f.name).join(', ')}, or no domain for a function or a stdin program`,
      );
    const given = this.given[domain];
    if (given) return { requests: form.requests, verifier: given };
    let verifier = this.open.get(domain);
    if (!verifier) {
      verifier = form.requests.open(this.options);
      this.open.set(domain, verifier);
      verifier.catch(() => this.open.delete(domain));
    }
    return { requests: form.requests, verifier: await verifier };
  }

  async close(): Promise<void> {
    const open = [...this.open.values()];
    this.open.clear();
    await Promise.all(open.map(async (v) => (await v.catch(() => undefined))?.close()));
  }
}
