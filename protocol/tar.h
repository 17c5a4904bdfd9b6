#pragma once

// A small POSIX ustar archive writer and reader (uncompressed; regular files only), for the
// tournament bundles of docs/records.md. Each member is a 512-byte header (name, octal size,
// checksum, magic "ustar\0" "00") followed by its bytes padded to a multiple of 512; the
// archive ends with two zero blocks. GNU and BSD tar read what write_tar writes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockfog::protocol {

struct TarEntry {
  std::string name;  // a relative path, "/"-separated, at most 255 bytes
  std::string data;
};

// The archive of `entries`, in order, each with mode 0644, owner 0:0 and modification time
// `mtime` (seconds since the Unix epoch; fixed so that the same entries give the same bytes).
// Throws std::invalid_argument for an empty, absolute, too long or "..", or duplicate name.
std::string write_tar(const std::vector<TarEntry>& entries, std::int64_t mtime = 0);

// The regular files of a ustar archive, in order. Directory entries are skipped. Returns
// nothing and says why in `error` for anything else: a bad checksum or magic, a size running
// past the end, a link or device entry, a duplicate or unsafe name, or a missing end.
std::optional<std::vector<TarEntry>> read_tar(std::string_view archive, std::string& error);

}  // namespace blockfog::protocol
