# The sanitizer build (debug preset) compiles at -O0, except the engine and the code that drives
# it through thousands of random games: the rules library, its tests, the AI and hots-sim.
# Those tests spent most of `./test.sh`'s test time in the engine and in nlohmann/json at -O0
# under AddressSanitizer; at -O1 (the level Clang's AddressSanitizer documentation recommends
# for reasonable speed; the sanitizers still instrument every access) they use a fifth of the
# CPU. The rest stays at -O0: the server's Boost.Beast units compile several times slower at -O1.
function(blockfog_optimise_engine target)
  if(BLOCKFOG_SANITIZE)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Debug>:-O1>)
  endif()
endfunction()
