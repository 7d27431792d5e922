/**
 * The counterexample views, by shape (see ../registry.js). A domain pack's view is one module
 * here and one line below. Order matters only where shapes overlap: the first match wins.
 */
import './sql.js';
import './function.js';
