/** The view of audit documents: not written yet (the generic view shows them meanwhile). */
export {};
