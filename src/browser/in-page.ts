/**
 * A function's source applied to its argument, as an expression for the judge's world
 * (judge-world.ts). The function must be self-contained — no imports, nothing from its module's
 * scope — since only its text is sent; tsx names functions with a helper (`__name`) the page
 * lacks, so the expression defines it first.
 */
export function inPage<A, R>(fn: (arg: A) => R, arg: A): string {
  return `(() => { const __name = (f) => f; return (${fn.toString()})(${JSON.stringify(arg) ?? 'undefined'}); })()`;
}
