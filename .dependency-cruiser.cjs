/**
 * The import rules `npm test` checks (npm run lint:imports): no cycles, and imports run down
 * the layers only. The layers, lowest first; a folder imports its own layer and those below.
 * Test files are left out: a test may reach anything it tests.
 */
const LAYERS = [
  ['core'], // tasks, verdicts, budgets, traces, seeded randomness, prompt helpers
  ['datasets', 'store', 'rl', 'feedback'], // dataset and sample files, the run store, rewards, failure facts
  ['runtimes'], // the sandbox and the workers in it
  ['browser'], // chromium, for the packs that judge pages
  ['models'], // the Model over its backends, calls within a budget
  ['agents'], // the repository agent's loop, tools and workspace
  ['domains'], // the pack contract, the registry and every pack (the code pack's engine included)
  ['select', 'skeletons'], // selection and abstention; the skeleton library
  ['strategies'], // how a subject is solved
  ['bench', 'testing'], // scoring datasets and reports' documents; crucible/testing's doubles
  ['report'], // the HTML report and the dashboard's pages
  ['server'], // crucible serve
  ['cli'], // the command line
];

const folder = (names) => `^src/(${names.join('|')})/`;
const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.join('-')}`,
  comment: `${layer.join(', ')} may not import a layer above it (${LAYERS.slice(index + 1)
    .flat()
    .join(', ')})`,
  severity: 'error',
  from: { path: folder(layer) },
  to: { path: folder(LAYERS.slice(index + 1).flat()) },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'a cycle of imports', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'product-imports-no-test-kit',
      comment: 'crucible/testing is for users\u2019 tests; product code does not run on it',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/testing/', '^src/index\\.ts$', '\\.test\\.ts$'] },
      to: { path: '^src/testing/' },
    },
    ...upward,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '^src/bench/builtin/tasks/'] },
  },
};
