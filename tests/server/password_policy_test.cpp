// New passwords (server/auth/password_policy.h, server/auth/common_passwords.h): common passwords
// are refused also when dressed up with case, digits, symbols and look-alike characters, and
// passwords that only share a few letters with a listed one are not.

#include <gtest/gtest.h>

#include <algorithm>

#include "server/auth/common_passwords.h"
#include "server/auth/password_policy.h"

namespace blockfog::server::testing {
namespace {

TEST(PasswordPolicy, CommonPasswordsAreRefusedAlsoDressedUp) {
  for (const char* common :
       {"password1234", "Passw0rd!", "P@ssword1", "letmein!", "monkey123", "qwerty1234", "password",
        "PASSWORD", "Qwertyuiop", "iloveyou", "sunshine1", "$ecret123", "dr4g0n99", "1michael1",
        "Summer2024!", "abc12345", "root1234", "trustno1", "braveheart"}) {
    EXPECT_TRUE(is_common_password(common)) << common;
    const auto reason = weak_password_reason("someone", common);
    ASSERT_TRUE(reason.has_value()) << common;
    EXPECT_NE(reason->find("common"), std::string::npos) << common;
  }
}

TEST(PasswordPolicy, PasswordsThatOnlyShareLettersWithTheListPass) {
  for (const char* fine :
       {"loch-trool-1307", "correct horse battery", "greyfriars-dumfries-1306", "dragon-slayer-88",
        "7Hk#p2Qz9!", "a7#93!42", "Tr0ub4dor&3", "pw-123456", "monkeyisland-castle"}) {
    EXPECT_FALSE(is_common_password(fine)) << fine;
    EXPECT_EQ(weak_password_reason("someone", fine), std::nullopt) << fine;
  }
}

TEST(PasswordPolicy, TheListIsLowerCaseSortedAndThousandsLong) {
  const auto list = common_password_list();
  EXPECT_GT(list.size(), 3000u);
  EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
  EXPECT_EQ(std::adjacent_find(list.begin(), list.end()), list.end());
  for (auto word : list) {
    EXPECT_FALSE(word.empty());
    EXPECT_TRUE(std::none_of(word.begin(), word.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
        << word;
  }
}

}  // namespace
}  // namespace blockfog::server::testing
