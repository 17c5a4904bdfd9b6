// Prettier for the web client (web-client/js, web-client/css) and these tests. Run from the
// repository root with this file as --config (`npm run format` here; ctest `web_lint` checks).
// 100 columns, as the C++ code's .clang-format; single quotes, as the code was written.
export default {
  printWidth: 100,
  singleQuote: true,
};
