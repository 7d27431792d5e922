/** The view of calibrate threshold files: not written yet (the generic view shows them meanwhile). */
export {};
