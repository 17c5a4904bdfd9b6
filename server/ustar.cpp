#include "server/ustar.h"

#include <cstdio>
#include <stdexcept>

namespace blockfog::server {
namespace {

constexpr std::size_t kBlock = 512;

// `value` in octal, zero-padded to width - 1 digits and NUL-terminated, at `field`.
void octal(char* field, std::size_t width, std::uint64_t value) {
  std::string digits(width - 1, '0');
  for (std::size_t i = width - 1; i-- > 0 && value > 0; value >>= 3) {
    digits[i] = static_cast<char>('0' + (value & 7));
  }
  if (value != 0) throw std::invalid_argument("ustar: a number too large for its field");
  digits.copy(field, width - 1);
  field[width - 1] = '\0';
}

}  // namespace

void UstarWriter::add_file(std::string_view name, std::string_view content,
                           std::int64_t mtime_seconds) {
  if (name.empty() || name.size() > 100) {
    throw std::invalid_argument("ustar: a name must be 1 to 100 bytes");
  }
  char header[kBlock] = {};
  name.copy(header, name.size());                                      // name[100] at 0
  octal(header + 100, 8, 0644);                                        // mode
  octal(header + 108, 8, 0);                                           // uid
  octal(header + 116, 8, 0);                                           // gid
  octal(header + 124, 12, content.size());                             // size
  octal(header + 136, 12, static_cast<std::uint64_t>(mtime_seconds));  // mtime
  header[156] = '0';                                                   // typeflag: regular file
  std::string_view("ustar").copy(header + 257, 5);                     // magic "ustar\0"
  header[263] = '0';                                                   // version "00"
  header[264] = '0';
  // The checksum: the header's bytes summed with the checksum field read as eight spaces,
  // written as six octal digits, NUL, space.
  std::string_view("        ").copy(header + 148, 8);
  unsigned sum = 0;
  for (const char c : header) sum += static_cast<unsigned char>(c);
  octal(header + 148, 7, sum);
  header[155] = ' ';
  out_.append(header, kBlock);
  out_.append(content);
  out_.append((kBlock - content.size() % kBlock) % kBlock, '\0');
}

std::string UstarWriter::finish() {
  out_.append(2 * kBlock, '\0');
  return std::move(out_);
}

}  // namespace blockfog::server
