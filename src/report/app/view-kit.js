/**
 * What a pack's own report view is given (PackModule.reportView): the app's template tag and
 * components and the registry to plug into. A pack's view is a module in the pack's folder whose
 * default export takes this kit, so it imports nothing from the report and is bundled into the
 * report and the dashboard when the pack is installed (src/report/bundle.ts).
 */
import { html } from 'htm/preact';
import { ExpectedActual } from './components/diff.js';
import { Program } from './components/program.js';
import { registerCounterexampleView, registerInputView } from './registry.js';

/**
 * @typedef {object} ViewKit
 * @property {typeof html} html htm bound to preact's h
 * @property {typeof ExpectedActual} ExpectedActual expected against actual, what differs marked
 * @property {typeof Program} Program a program, highlighted
 * @property {typeof registerCounterexampleView} registerCounterexampleView
 * @property {typeof registerInputView} registerInputView
 */

/** @type {ViewKit} */
export const viewKit = { html, ExpectedActual, Program, registerCounterexampleView, registerInputView };
