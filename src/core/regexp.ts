/** `text` as a literal inside a regular expression (a task's entry point comes from its dataset or a request). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
