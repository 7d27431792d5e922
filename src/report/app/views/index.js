/**
 * Every view the report has (each registers itself, see ../registry.js). A view for another
 * kind of document, or a comparison of two, is one module here and one line below.
 */
import './generic.js';
import './eval.js';
import './compare.js';
import './select.js';
import './calibrate.js';
import './audit.js';
import './run.js';
import '../counterexamples/index.js';
