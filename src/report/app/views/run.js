/** The view of recorded runs and solve documents: not written yet (the generic view shows them meanwhile). */
export {};
