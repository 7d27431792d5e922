/**
 * Moving between pages (hash routes) moves focus to the new page's heading, as loading a page
 * would start at its top: the router asks, and the page focuses its heading once it shows one
 * (a run's page first reads its run).
 */
import { useEffect } from 'preact/hooks';

let wanted = false;

/** The next page shown takes focus. */
export function focusNextHeading() {
  wanted = true;
}

/** Focuses the page's heading, if asked, once `ready`. @param {boolean} ready */
export function useHeadingFocus(ready) {
  useEffect(() => {
    if (!ready || !wanted) return;
    const heading = /** @type {HTMLElement | null} */ (document.querySelector('main h1'));
    if (!heading) return;
    wanted = false;
    heading.tabIndex = -1;
    heading.focus();
  });
}
