#include "rules/core/hex.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace blockfog::core {
namespace {

TEST(Hex, ToHexIsLowercaseTwoDigitsPerByte) {
  const std::array<std::uint8_t, 5> bytes{0x00, 0x0f, 0xa0, 0xff, 0x5c};
  EXPECT_EQ(to_hex(bytes), "000fa0ff5c");
  EXPECT_EQ(to_hex({}), "");
}

TEST(Hex, FromHexAcceptsEitherCase) {
  EXPECT_EQ(from_hex("000fA0Ff5c"), (std::vector<std::uint8_t>{0x00, 0x0f, 0xa0, 0xff, 0x5c}));
  EXPECT_EQ(from_hex(""), std::vector<std::uint8_t>{});
}

TEST(Hex, FromHexRejectsMalformedText) {
  EXPECT_EQ(from_hex("abc"), std::nullopt);
  EXPECT_EQ(from_hex("0g"), std::nullopt);
  EXPECT_EQ(from_hex("g0"), std::nullopt);
  EXPECT_EQ(from_hex("0x12"), std::nullopt);
  EXPECT_EQ(from_hex(" 12 "), std::nullopt);
  EXPECT_EQ(from_hex(std::string("1\0", 2)), std::nullopt);
}

TEST(Hex, SeedRoundTrip) {
  Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(i * 7 + 3);
  const std::string text = to_hex(seed);
  ASSERT_EQ(text.size(), 64u);
  EXPECT_EQ(seed_from_hex(text), seed);
}

TEST(Hex, SeedNeedsExactlySixtyFourHexDigits) {
  const std::string valid(64, 'a');
  EXPECT_TRUE(seed_from_hex(valid).has_value());
  EXPECT_EQ(seed_from_hex(valid.substr(0, 63)), std::nullopt);
  EXPECT_EQ(seed_from_hex(valid.substr(0, 62)), std::nullopt);
  EXPECT_EQ(seed_from_hex(valid + "aa"), std::nullopt);
  EXPECT_EQ(seed_from_hex(""), std::nullopt);
  std::string bad = valid;
  bad[40] = 'z';
  EXPECT_EQ(seed_from_hex(bad), std::nullopt);
}

}  // namespace
}  // namespace blockfog::core
