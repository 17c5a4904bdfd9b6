#include "rules/core/sha256.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "rules/core/hex.h"
#include "rules/core/sha256_x86.h"

namespace blockfog::core {
namespace {

constexpr std::string_view kTwoBlockMessage =
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
constexpr std::string_view kLongMessage =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
    "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

// FIPS 180 example digests.
TEST(Sha256, EmptyMessage) {
  EXPECT_EQ(to_hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Abc) {
  EXPECT_EQ(to_hex(sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, FourHundredFortyEightBitMessage) {
  EXPECT_EQ(to_hex(sha256(kTwoBlockMessage)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, EightHundredNinetySixBitMessage) {
  EXPECT_EQ(to_hex(sha256(kLongMessage)),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionA) {
  EXPECT_EQ(to_hex(sha256(std::string(1'000'000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalMatchesOneShotForEveryChunkSize) {
  const std::string message = std::string(kLongMessage) + std::string(kTwoBlockMessage);
  const Digest expected = sha256(message);
  for (std::size_t chunk = 1; chunk <= message.size(); ++chunk) {
    Sha256 hasher;
    for (std::size_t at = 0; at < message.size(); at += chunk) {
      hasher.update(std::string_view(message).substr(at, chunk));
    }
    EXPECT_EQ(hasher.finish(), expected) << "chunk " << chunk;
  }
}

TEST(Sha256, IncrementalMillionA) {
  Sha256 hasher;
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) hasher.update(thousand);
  EXPECT_EQ(to_hex(hasher.finish()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  // Lengths around 55/56/64 bytes exercise the one- and two-block padding paths.
  for (const std::size_t length : {55u, 56u, 63u, 64u, 65u, 119u, 120u}) {
    const std::string message(length, 'x');
    Sha256 split;
    split.update(std::string_view(message).substr(0, length / 2));
    split.update(std::string_view(message).substr(length / 2));
    EXPECT_EQ(split.finish(), sha256(message)) << "length " << length;
  }
}

// The processor's SHA instructions (where this machine has them) and the portable code give
// the same digests, for every length around the block boundaries and for long inputs.
TEST(Sha256, CpuInstructionsAndPortableCodeAgree) {
  if (!sha256_x86::available()) GTEST_SKIP() << "no SHA instructions on this processor";
  std::mt19937 gen(3);
  std::string message;
  for (std::size_t length = 0; length < 1200; ++length) {
    message.push_back(static_cast<char>(gen()));
    Sha256 fast(true);
    Sha256 portable(false);
    fast.update(message);
    portable.update(message.substr(0, length / 3));
    portable.update(message.substr(length / 3));
    ASSERT_EQ(fast.finish(), portable.finish()) << "length " << message.size();
  }
  Sha256 portable(false);
  portable.update(kLongMessage);
  EXPECT_EQ(to_hex(portable.finish()),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, FinishResetsTheHasher) {
  Sha256 hasher;
  hasher.update("something else");
  (void)hasher.finish();
  hasher.update("abc");
  EXPECT_EQ(hasher.finish(), sha256("abc"));
  EXPECT_EQ(hasher.finish(), sha256(""));
}

}  // namespace
}  // namespace blockfog::core
