// ESLint for the web client's browser modules and for these tests. Run from the repository
// root with this file as --config (`npm run lint` here, ctest `web_lint`): the linted files lie
// outside tests/web, and an explicit --config makes the root the base of the patterns below.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused arguments stay when they document a callback's signature; a leading underscore
      // marks one as unused on purpose. Unused variables and imports are always reported.
      'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web-client/js/**/*.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
  {
    // Node's test runner; the e2e tests also pass functions to page.evaluate(), which run in
    // the browser, so both sets of globals are known there.
    files: ['tests/web/**/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The tools' node scripts are not part of this check.
    ignores: ['tests/web/node_modules/'],
  },
];
