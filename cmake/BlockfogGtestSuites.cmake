# blockfog_gtest_suites(target PREFIX prefix [COST n]): registers one CTest test per GoogleTest
# suite of `target`, named prefix + suite (rules.Battle, server.Security), which runs that
# suite's tests in one process; COST (CTest's property) starts long suites early on a first run.
# Why suites: in the sanitizer build a process costs about 0.1 s of CPU to start and to check for
# leaks at exit, more than most rules tests; one process per test took the rules tests 85 s of
# CPU against 29 s, the server tests 380 s against 298 s. A failing test's name and message are
# in its suite's output. As gtest_discover_tests does, the suites are read from the built binary
# (--gtest_list_tests) after each link, so a new suite needs no CMake change.
set(BLOCKFOG_GTEST_SUITES_LIST ${CMAKE_CURRENT_LIST_DIR}/BlockfogGtestSuitesList.cmake)

function(blockfog_gtest_suites target)
  cmake_parse_arguments(arg "" "PREFIX;COST" "" ${ARGN})
  if(NOT arg_COST)
    set(arg_COST 0)
  endif()
  set(list_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D BIN=$<TARGET_FILE:${target}> -D PREFIX=${arg_PREFIX}
            -D DIR=${CMAKE_CURRENT_BINARY_DIR} -D COST=${arg_COST} -D OUT=${list_file}
            -P ${BLOCKFOG_GTEST_SUITES_LIST}
    BYPRODUCTS ${list_file}
    VERBATIM)
  # CTest reads the list when it runs; before the first build there is none, and a test that
  # cannot start says so.
  set(include_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites_include.cmake)
  file(WRITE ${include_file}
    "if(EXISTS \"${list_file}\")\n"
    "  include(\"${list_file}\")\n"
    "else()\n"
    "  add_test(${arg_PREFIX}${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
