# Profile-guided optimisation (README.md, "Profile-guided builds"). scripts/pgo-train.sh
# builds the server and the load client with BLOCKFOG_PGO=GENERATE (the `pgo-train` preset),
# plays games through them, and leaves the counts in BLOCKFOG_PGO_DIR; the `release-pgo` preset
# (BLOCKFOG_PGO=USE; the Docker image and bench/load.sh) then compiles with those counts. Under
# load the server used 1-5% less CPU per action, within the machine's hour-to-hour drift: an
# opt-in, so that the default build needs no third build tree.
#
# Both builds name a profile file after the object's path below their own build directory
# (-fprofile-prefix-path), so build/pgo-train's counts for rules/.../hex.cpp.o are found by
# build/release-pgo's compile of the same object.

set(BLOCKFOG_PGO "OFF" CACHE STRING "Profile-guided optimisation: OFF, GENERATE or USE")
set_property(CACHE BLOCKFOG_PGO PROPERTY STRINGS OFF GENERATE USE)
set(BLOCKFOG_PGO_DIR "${CMAKE_SOURCE_DIR}/build/pgo-profile" CACHE PATH
    "Where GENERATE writes the profile and USE reads it")

if(NOT BLOCKFOG_PGO STREQUAL "OFF")
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 11)
    message(WARNING "BLOCKFOG_PGO needs GCC 11 or later (-fprofile-prefix-path); building "
                    "without profile feedback")
  elseif(BLOCKFOG_SANITIZE)
    message(WARNING "BLOCKFOG_PGO is ignored in a sanitizer build")
  elseif(BLOCKFOG_PGO STREQUAL "GENERATE")
    # Atomic counters: the server counts on several threads at once.
    add_compile_options(-fprofile-generate=${BLOCKFOG_PGO_DIR} -fprofile-update=atomic
                        -fprofile-prefix-path=${CMAKE_BINARY_DIR})
    add_link_options(-fprofile-generate=${BLOCKFOG_PGO_DIR})
  elseif(BLOCKFOG_PGO STREQUAL "USE")
    if(EXISTS "${BLOCKFOG_PGO_DIR}/trained")
      message(STATUS "Profile-guided optimisation from ${BLOCKFOG_PGO_DIR}")
      # -fprofile-partial-training: code the training did not run (TLS, error paths, the
      # tests) is optimised as without a profile, not for size as if it never ran.
      # -Wno-missing-profile: objects outside the server and the load client have no profile.
      # -Wno-error=coverage-mismatch: a source edited since the training is compiled without
      # its stale counts, with a warning, instead of failing the build (scripts/build.sh
      # trains again first).
      add_compile_options(-fprofile-use=${BLOCKFOG_PGO_DIR} -fprofile-partial-training
                          -fprofile-prefix-path=${CMAKE_BINARY_DIR} -Wno-missing-profile
                          -Wno-error=coverage-mismatch)
    else()
      message(STATUS "No trained profile in ${BLOCKFOG_PGO_DIR} (scripts/pgo-train.sh): "
                     "building without profile feedback")
    endif()
  else()
    message(FATAL_ERROR "BLOCKFOG_PGO must be OFF, GENERATE or USE, not ${BLOCKFOG_PGO}")
  endif()
endif()

# A generated source (cmake/BlockfogEmbed.cmake) lies in its build directory, and its
# functions' profile checksums hold that path: build/release-pgo's copy never matches
# build/pgo-train's. They only return embedded bytes, so they go without a profile, quietly.
function(blockfog_pgo_generated_source path)
  if(BLOCKFOG_PGO STREQUAL "USE" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set_source_files_properties(${path} PROPERTIES COMPILE_OPTIONS -Wno-coverage-mismatch)
  endif()
endfunction()
