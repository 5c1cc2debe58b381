// evap/notebook: answers that display themselves in Jupyter's Deno and tslab kernels (docs/notebooks/README.md): a
// compact table, charts, one store kept across re-run cells. A script that reads data (evap) loads none of it.
export { Chart, type PlotOptions, plot } from './notebook/plot.js';
export { AnswerView, type ViewOptions, view } from './notebook/view.js';
export { openStoreOnce } from './open/store-once.js';
