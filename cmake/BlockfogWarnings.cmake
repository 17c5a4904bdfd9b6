# Warnings are errors on the project's own targets (docs/architecture.md, Conventions).
function(blockfog_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
    -Wimplicit-fallthrough -Werror)
  # GCC 12 at -O2/-O3 reports impossible overlaps in std::string concatenation (GCC bug
  # 105329, a false positive inside libstdc++); keep the warning, not the error, there.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-error=restrict)
  endif()
endfunction()
