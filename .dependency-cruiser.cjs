/**
 * The import graph's rules (`npm run lint`): apps never import each other, libs never import apps,
 * inside an app imports run downward (controller → service → repository; nothing imports a
 * controller or a module but a module), and no import cycle, at file or feature-folder level.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: one of the two sides belongs in a lower layer or a lib.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-features',
      severity: 'error',
      comment: 'Two feature folders that import each other: the shared part belongs in a lower folder or a lib.',
      scope: 'folder',
      from: { path: '^apps/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'apps-stay-apart',
      severity: 'error',
      comment: 'Apps depend on libs, never on each other.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'libs-below-apps',
      severity: 'error',
      comment: 'A lib never imports an app.',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'only-modules-import-controllers',
      severity: 'error',
      comment: 'A controller is the top of its feature: only its module imports it.',
      from: { pathNot: '\\.(module|spec)\\.ts$' },
      to: { path: '\\.controller\\.ts$' },
    },
    {
      name: 'only-modules-import-modules',
      severity: 'error',
      comment: 'Modules compose the app; code below them does not reach back up to one.',
      from: { path: '^apps/', pathNot: '(\\.module\\.ts|\\.spec\\.ts|/main\\.ts|/cli\\.ts|/setup\\.ts|/openapi\\.ts)$' },
      to: { path: '\\.module\\.ts$' },
    },
    {
      name: 'repositories-below-services',
      severity: 'error',
      comment: 'A repository owns SQL, not rules: it never imports a service.',
      from: { path: '\\.repository\\.ts$' },
      to: { path: '\\.(service|controller)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|coverage|test-artifacts)/|^apps/console/web/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
