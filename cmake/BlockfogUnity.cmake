# Unity builds for the targets whose files share heavy headers (GoogleTest, nlohmann/json,
# Boost.Asio): batches of files compile as one translation unit, so those headers are parsed
# once per batch instead of once per file. Files of one target must then not define the same
# name at namespace scope, anonymous namespaces included.
set(BLOCKFOG_UNITY ON CACHE BOOL "Compile the heavier targets as unity batches")

function(blockfog_unity target)
  if(BLOCKFOG_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
