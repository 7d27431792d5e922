/**
 * What a pack's own report view is given (PackModule.reportView): the app's template tag,
 * components and formats, and the registry to plug into. A pack's view is a module in the pack's folder whose
 * default export takes this kit, so it imports nothing from the report and is bundled into the
 * report and the dashboard when the pack is installed (src/report/bundle.ts).
 */
import { html } from 'htm/preact';
import { ExpectedActual } from './components/diff.js';
import { Program } from './components/program.js';
import { Figures, ViewHeader } from './components/select-parts.js';
import { count, percent } from './format.js';
import { registerAuditView, registerCounterexampleView, registerInputView } from './registry.js';

/**
 * @typedef {object} ViewKit
 * @property {typeof html} html htm bound to preact's h
 * @property {typeof ExpectedActual} ExpectedActual expected against actual, what differs marked
 * @property {typeof Program} Program a program, highlighted
 * @property {typeof ViewHeader} ViewHeader a document view's title line and facts
 * @property {typeof Figures} Figures a card's figures
 * @property {typeof count} count a count as the report prints it
 * @property {typeof percent} percent a fraction as a percentage
 * @property {typeof registerCounterexampleView} registerCounterexampleView
 * @property {typeof registerInputView} registerInputView
 * @property {typeof registerAuditView} registerAuditView
 */

/** @type {ViewKit} */
export const viewKit = {
  html,
  ExpectedActual,
  Program,
  ViewHeader,
  Figures,
  count,
  percent,
  registerCounterexampleView,
  registerInputView,
  registerAuditView,
};
