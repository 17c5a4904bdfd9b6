// The ustar writer and reader of tournament bundles (docs/records.md): what write_tar writes,
// read_tar and GNU tar read back; a damaged archive is refused with its reason.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "protocol/tar.h"

namespace blockfog::protocol {
namespace {

std::vector<TarEntry> sample() {
  return {{"manifest.json", "{\"format\":\"blockfog-tournament-bundle\"}"},
          {"games/12.json", std::string(1000, 'x')},
          {"games/empty.json", ""},
          {std::string(120, 'd') + "/" + std::string(90, 'n') + ".json", "long name"}};
}

TEST(Tar, WhatIsWrittenReadsBackInOrder) {
  const auto archive = write_tar(sample(), 1700000000);
  EXPECT_EQ(archive.size() % 512, 0u);
  std::string error;
  const auto read = read_tar(archive, error);
  ASSERT_TRUE(read) << error;
  ASSERT_EQ(read->size(), 4u);
  for (std::size_t i = 0; i < read->size(); ++i) {
    EXPECT_EQ((*read)[i].name, sample()[i].name);
    EXPECT_EQ((*read)[i].data, sample()[i].data);
  }
  EXPECT_EQ(write_tar(sample(), 1700000000), archive);  // the same entries, the same bytes
}

TEST(Tar, GnuTarListsAndExtractsIt) {
  char pattern[] = "/tmp/blockfog-tar-XXXXXX";
  ASSERT_TRUE(mkdtemp(pattern));
  const std::filesystem::path dir = pattern;
  {
    std::ofstream out(dir / "a.tar", std::ios::binary);
    out << write_tar(sample());
  }
  const auto command = "cd '" + dir.string() + "' && tar -xf a.tar && tar -tf a.tar";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_TRUE(pipe);
  std::string listing;
  char buffer[1024];
  while (const auto n = std::fread(buffer, 1, sizeof buffer, pipe)) listing.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0);
  std::string expected;
  for (const auto& e : sample()) expected += e.name + "\n";
  EXPECT_EQ(listing, expected);
  std::ifstream in(dir / "games/12.json", std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(data, std::string(1000, 'x'));
  std::filesystem::remove_all(dir);
}

TEST(Tar, DamageIsRefusedWithItsReason) {
  const auto archive = write_tar(sample());
  std::string error;

  auto changed = archive;
  changed[0] = 'M';  // the first name, under its checksum
  EXPECT_FALSE(read_tar(changed, error));
  EXPECT_EQ(error, "the header at byte 0 has a wrong checksum");

  EXPECT_FALSE(read_tar(archive.substr(0, 512 + 10), error));
  EXPECT_EQ(error, "member manifest.json runs past the end of the archive");

  EXPECT_FALSE(read_tar(archive.substr(0, archive.size() - 1024), error));
  EXPECT_EQ(error, "the archive ends without its two zero blocks");

  EXPECT_FALSE(read_tar(std::string(1024, 'z'), error));
  EXPECT_EQ(error, "the header at byte 0 is not a ustar header");

  // A symbolic link is not a file of a bundle.
  changed = write_tar({{"link", ""}});
  changed[156] = '2';
  unsigned sum = 0;
  for (std::size_t i = 0; i < 512; ++i)
    sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(changed[i]);
  char digits[8];
  std::snprintf(digits, sizeof digits, "%06o", sum);
  changed.replace(148, 6, digits, 6);
  EXPECT_FALSE(read_tar(changed, error));
  EXPECT_EQ(error, "member link is not a regular file (type 2)");
}

TEST(Tar, UnsafeOrDuplicateNamesAreNotWritten) {
  EXPECT_THROW(write_tar({{"/etc/passwd", ""}}), std::invalid_argument);
  EXPECT_THROW(write_tar({{"games/../x", ""}}), std::invalid_argument);
  EXPECT_THROW(write_tar({{"", ""}}), std::invalid_argument);
  EXPECT_THROW(write_tar({{"a", ""}, {"a", "b"}}), std::invalid_argument);
  EXPECT_THROW(write_tar({{std::string(300, 'n'), ""}}), std::invalid_argument);
}

}  // namespace
}  // namespace blockfog::protocol
