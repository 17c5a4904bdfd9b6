#pragma once

// A minimal writer of uncompressed POSIX ustar archives (POSIX.1-1988, pax's "ustar" format):
// regular files only, 512-byte headers with their checksum, contents padded with zeros to 512
// bytes, and two zero blocks at the end. Used for the tournament bundle (docs/tournaments.md).

#include <cstdint>
#include <string>
#include <string_view>

namespace blockfog::server {

class UstarWriter {
 public:
  // Adds a regular file (mode 0644, owner 0:0) modified at `mtime_seconds`. `name` must be at
  // most 100 bytes; longer names throw std::invalid_argument.
  void add_file(std::string_view name, std::string_view content, std::int64_t mtime_seconds);
  // The archive: the files added, then the end-of-archive blocks.
  std::string finish();

 private:
  std::string out_;
};

}  // namespace blockfog::server
