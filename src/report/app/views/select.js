/** The view of select documents: not written yet (the generic view shows them meanwhile). */
export {};
