#include "protocol/tar.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <stdexcept>

namespace blockfog::protocol {
namespace {

constexpr std::size_t kBlock = 512;
// Field offsets and lengths of the ustar header (POSIX.1-1988, pax "ustar" format).
constexpr std::size_t kName = 0, kNameLen = 100;
constexpr std::size_t kMode = 100, kUid = 108, kGid = 116;
constexpr std::size_t kSize = 124, kSizeLen = 12;
constexpr std::size_t kMtime = 136;
constexpr std::size_t kChecksum = 148, kChecksumLen = 8;
constexpr std::size_t kType = 156;
constexpr std::size_t kMagic = 257;
constexpr std::size_t kVersion = 263;
constexpr std::size_t kUname = 265, kGname = 297;
constexpr std::size_t kPrefix = 345, kPrefixLen = 155;

bool safe_name(std::string_view name) {
  if (name.empty() || name.front() == '/') return false;
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto end = std::min(name.find('/', start), name.size());
    const auto part = name.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

void put_octal(std::string& header, std::size_t at, std::size_t len, std::uint64_t value) {
  // len - 1 octal digits, zero-padded, then a NUL.
  std::string digits(len - 1, '0');
  for (std::size_t i = len - 1; i-- > 0 && value > 0; value >>= 3) {
    digits[i] = static_cast<char>('0' + (value & 7));
  }
  if (value != 0) throw std::invalid_argument("tar: a number does not fit its field");
  header.replace(at, len - 1, digits);
  header[at + len - 1] = '\0';
}

void put_text(std::string& header, std::size_t at, std::size_t len, std::string_view text) {
  header.replace(at, std::min(text.size(), len), text.substr(0, len));
}

unsigned checksum(std::string_view header) {
  unsigned sum = 0;
  for (std::size_t i = 0; i < kBlock; ++i) {
    const bool in_field = i >= kChecksum && i < kChecksum + kChecksumLen;
    sum += in_field ? static_cast<unsigned>(' ') : static_cast<unsigned char>(header[i]);
  }
  return sum;
}

std::optional<std::uint64_t> read_octal(std::string_view field) {
  std::uint64_t value = 0;
  std::size_t i = 0;
  while (i < field.size() && field[i] == ' ') ++i;
  bool any = false;
  for (; i < field.size() && field[i] >= '0' && field[i] <= '7'; ++i) {
    if (value > (UINT64_MAX >> 3)) return std::nullopt;
    value = value * 8 + static_cast<std::uint64_t>(field[i] - '0');
    any = true;
  }
  for (; i < field.size(); ++i) {
    if (field[i] != ' ' && field[i] != '\0') return std::nullopt;
  }
  if (!any) return std::nullopt;
  return value;
}

std::string c_string(std::string_view field) {
  return std::string(field.substr(0, std::min(field.find('\0'), field.size())));
}

}  // namespace

std::string write_tar(const std::vector<TarEntry>& entries, std::int64_t mtime) {
  std::string out;
  std::set<std::string> seen;
  for (const auto& entry : entries) {
    if (!safe_name(entry.name)) throw std::invalid_argument("tar: unsafe name " + entry.name);
    if (!seen.insert(entry.name).second) {
      throw std::invalid_argument("tar: duplicate name " + entry.name);
    }
    std::string header(kBlock, '\0');
    if (entry.name.size() <= kNameLen) {
      put_text(header, kName, kNameLen, entry.name);
    } else {
      // Split at a "/" so that the prefix holds at most 155 bytes and the name at most 100.
      const auto cut = entry.name.rfind('/', kPrefixLen);
      if (cut == std::string::npos || entry.name.size() - cut - 1 > kNameLen) {
        throw std::invalid_argument("tar: name too long " + entry.name);
      }
      put_text(header, kPrefix, kPrefixLen, std::string_view(entry.name).substr(0, cut));
      put_text(header, kName, kNameLen, std::string_view(entry.name).substr(cut + 1));
    }
    put_octal(header, kMode, 8, 0644);
    put_octal(header, kUid, 8, 0);
    put_octal(header, kGid, 8, 0);
    put_octal(header, kSize, kSizeLen, entry.data.size());
    put_octal(header, kMtime, 12, static_cast<std::uint64_t>(std::max<std::int64_t>(mtime, 0)));
    header[kType] = '0';
    put_text(header, kMagic, 6, std::string_view("ustar\0", 6));
    put_text(header, kVersion, 2, "00");
    put_text(header, kUname, 32, "blockfog");
    put_text(header, kGname, 32, "blockfog");
    // Six octal digits, a NUL and a space, as POSIX tar writes it.
    char sum[8];
    std::snprintf(sum, sizeof sum, "%06o", checksum(header));
    header.replace(kChecksum, 6, sum, 6);
    header[kChecksum + 6] = '\0';
    header[kChecksum + 7] = ' ';
    out += header;
    out += entry.data;
    out.append((kBlock - entry.data.size() % kBlock) % kBlock, '\0');
  }
  out.append(2 * kBlock, '\0');
  return out;
}

std::optional<std::vector<TarEntry>> read_tar(std::string_view archive, std::string& error) {
  std::vector<TarEntry> entries;
  std::set<std::string> seen;
  std::size_t at = 0;
  while (true) {
    if (at + kBlock > archive.size()) {
      error = "the archive ends without its two zero blocks";
      return std::nullopt;
    }
    const auto header = archive.substr(at, kBlock);
    if (std::all_of(header.begin(), header.end(), [](char c) { return c == '\0'; })) {
      return entries;  // the end-of-archive block
    }
    const auto where = "the header at byte " + std::to_string(at);
    if (header.substr(kMagic, 5) != "ustar") {
      error = where + " is not a ustar header";
      return std::nullopt;
    }
    const auto stored_sum = read_octal(header.substr(kChecksum, kChecksumLen));
    if (!stored_sum || *stored_sum != checksum(header)) {
      error = where + " has a wrong checksum";
      return std::nullopt;
    }
    const auto size = read_octal(header.substr(kSize, kSizeLen));
    if (!size) {
      error = where + " has no readable size";
      return std::nullopt;
    }
    std::string name = c_string(header.substr(kName, kNameLen));
    const auto prefix = c_string(header.substr(kPrefix, kPrefixLen));
    if (!prefix.empty()) name = prefix + "/" + name;
    const char type = header[kType];
    at += kBlock;
    if (*size > archive.size() - at) {
      error = "member " + name + " runs past the end of the archive";
      return std::nullopt;
    }
    const auto data = archive.substr(at, *size);
    at += (*size + kBlock - 1) / kBlock * kBlock;
    if (type == '5') continue;  // a directory
    if (type != '0' && type != '\0') {
      error = "member " + name + " is not a regular file (type " + std::string(1, type) + ")";
      return std::nullopt;
    }
    if (!safe_name(name)) {
      error = "member name " + name + " is not a safe relative path";
      return std::nullopt;
    }
    if (!seen.insert(name).second) {
      error = "member " + name + " appears twice";
      return std::nullopt;
    }
    entries.push_back({name, std::string(data)});
  }
}

}  // namespace blockfog::protocol
