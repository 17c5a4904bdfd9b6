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
      // Prettier wraps code at 100 columns but neither comments nor strings: comments are held
      // to 100 here; a string or template literal may run past (split, it would read worse in
      // a search). Deprecated in ESLint's core since 8.53 (kept until 11), like every layout
      // rule; @stylistic/max-len is its successor.
      'max-len': [
        'error',
        {
          code: 100,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
        },
      ],
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
