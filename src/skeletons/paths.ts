/** Where the skeleton library is kept by default (kept apart from library.ts, which loads tree-sitter). */
export const DEFAULT_LIBRARY = '.crucible/skeletons.jsonl';
