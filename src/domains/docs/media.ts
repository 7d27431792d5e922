/**
 * The media a document is judged on, as the reviewer lays them out: a printed page's size and
 * default margins in CSS pixels (96 px to the inch), and the screen's viewport.
 */
import type { Medium } from './issues.js';

export const PX_PER_IN = 96;
export const PX_PER_MM = PX_PER_IN / 25.4;

export interface PrintMedium {
  readonly kind: 'print';
  readonly name: string;
  /** The sheet, px. */
  readonly width: number;
  readonly height: number;
  /**
   * The margin used when the document's `@page` rule sets none, px, on every side: 15 mm on A4,
   * 0.6 in on Letter (close to a word processor's defaults; chromium's own print preview uses
   * about 0.4 in, and page.pdf none at all).
   */
  readonly defaultMargin: number;
  /** How the default margin is said to a person. */
  readonly defaultMarginText: string;
}

export interface ScreenMedium {
  readonly kind: 'screen';
  readonly name: string;
  readonly width: number;
  readonly height: number;
}

export const MEDIA_LAYOUT: Readonly<Record<Medium, PrintMedium | ScreenMedium>> = {
  a4: {
    kind: 'print',
    name: 'A4',
    width: 210 * PX_PER_MM,
    height: 297 * PX_PER_MM,
    defaultMargin: 15 * PX_PER_MM,
    defaultMarginText: '15 mm',
  },
  letter: {
    kind: 'print',
    name: 'Letter',
    width: 8.5 * PX_PER_IN,
    height: 11 * PX_PER_IN,
    defaultMargin: 0.6 * PX_PER_IN,
    defaultMarginText: '0.6 in',
  },
  screen: { kind: 'screen', name: 'screen', width: 1280, height: 800 },
};

/** A4, Letter, screen: how a medium is named to a person. */
export const mediumName = (medium: Medium): string => MEDIA_LAYOUT[medium].name;

/** The four margins of a printed page, px. */
export interface PageMargins {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

/** The area of a printed page the document flows in, px: the sheet less its margins (at least 1 px each way). */
export function contentBox(medium: PrintMedium, margins: PageMargins): { width: number; height: number } {
  return {
    width: Math.max(1, medium.width - margins.left - margins.right),
    height: Math.max(1, medium.height - margins.top - margins.bottom),
  };
}
