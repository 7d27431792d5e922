/**
 * The counterexample and input views, by shape (see ../registry.js). Each installed pack's own
 * view (PackModule.reportView, gathered by src/report/bundle.ts into `crucible:pack-views`) is
 * registered first, then the function view: the first view whose shape matches wins.
 */
import { registerPackViews } from 'crucible:pack-views';
import { viewKit } from '../view-kit.js';
import { registerFunctionView } from './function.js';

registerPackViews(viewKit);
registerFunctionView();
