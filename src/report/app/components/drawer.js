/**
 * The panel a sample's detail opens in, over the right of the page. Not modal: the grid stays
 * usable beside it. Escape closes it (the caller puts focus back where it was).
 */
import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * @param {{ title: import('preact').ComponentChild, onClose: () => void, wide?: boolean, children?: import('preact').ComponentChildren }} props
 */
export function Drawer({ title, onClose, wide = false, children }) {
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => {
    heading.current?.focus();
    /** @param {KeyboardEvent} event */
    const onKey = (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return html`<div class="drawer${wide ? ' wide' : ''}" role="dialog" aria-modal="false" aria-labelledby="drawer-title">
    <div class="drawer-head">
      <h2 id="drawer-title" tabindex="-1" ref=${heading}>${title}</h2>
      <button type="button" class="close" onClick=${onClose} aria-label="Close the detail (Escape)">×</button>
    </div>
    <div class="drawer-body">${children}</div>
  </div>`;
}
