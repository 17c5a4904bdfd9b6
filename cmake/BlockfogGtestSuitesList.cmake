# Script mode (cmake -P), run after `BIN` is linked (BlockfogGtestSuites.cmake): writes to `OUT`
# one add_test per GoogleTest suite that `BIN --gtest_list_tests` lists, named PREFIX + suite,
# running in `DIR`, with CTest's COST `COST`.
execute_process(COMMAND ${BIN} --gtest_list_tests
  OUTPUT_VARIABLE listing RESULT_VARIABLE result TIMEOUT 60)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${BIN} --gtest_list_tests failed: ${result}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(content "")
foreach(line IN LISTS lines)
  # A suite's line ends in a dot (a typed or parameterised one may carry a comment after it);
  # its tests' lines are indented.
  if(line MATCHES "^([A-Za-z_][A-Za-z0-9_/]*)\\.( .*)?$")
    set(suite ${CMAKE_MATCH_1})
    string(APPEND content
      "add_test([=[${PREFIX}${suite}]=] [=[${BIN}]=] [=[--gtest_filter=${suite}.*]=])\n"
      "set_tests_properties([=[${PREFIX}${suite}]=] PROPERTIES WORKING_DIRECTORY [=[${DIR}]=] COST ${COST})\n")
  endif()
endforeach()
if(content STREQUAL "")
  message(FATAL_ERROR "${BIN} --gtest_list_tests listed no suite")
endif()
file(WRITE ${OUT} "${content}")
