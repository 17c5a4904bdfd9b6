// Signatures of records and manifests (protocol/signature.h): what is signed verifies, any
// change to it does not, a signature does not pass for another kind of document or another
// key, and a key file that pairs an id with another key is not believed.

#include "protocol/signature.h"

#include <gtest/gtest.h>

namespace blockfog::protocol {
namespace {

using nlohmann::json;

json a_record() {
  return {{"game_id", 7},
          {"result", {{"winner", "scotland"}, {"reason", "resigned"}}},
          {"actions", json::array({{{"seq", 1}, {"role", "england"}}})},
          {"note", "Dùn Èideann"}};
}

TEST(Signature, WhatIsSignedVerifiesAndAnyChangeDoesNot) {
  const auto key = make_signing_key();
  EXPECT_EQ(key.key_id, key_id_of(key.public_hex));
  EXPECT_EQ(key.key_id.size(), 32U);
  auto record = a_record();
  sign_document(record, kSignedRecord, key);
  const std::vector<PublicKey> trusted{{key.key_id, key.public_hex}};
  EXPECT_EQ(check_signature(record, kSignedRecord, trusted).check, SignatureCheck::Valid);
  // Parsed back from its text, as a verifier reads it: the same bytes are signed.
  EXPECT_EQ(check_signature(json::parse(record.dump(2)), kSignedRecord, trusted).check,
            SignatureCheck::Valid);

  auto changed = record;
  changed["result"]["winner"] = "england";
  EXPECT_EQ(check_signature(changed, kSignedRecord, trusted).check, SignatureCheck::BadSignature);
  changed = record;
  changed["actions"].push_back({{"seq", 2}});
  EXPECT_EQ(check_signature(changed, kSignedRecord, trusted).check, SignatureCheck::BadSignature);
  changed = record;
  changed["extra"] = true;
  EXPECT_EQ(check_signature(changed, kSignedRecord, trusted).check, SignatureCheck::BadSignature);
  // A record's signature is not a manifest's.
  EXPECT_EQ(check_signature(record, kSignedManifest, trusted).check, SignatureCheck::BadSignature);
}

TEST(Signature, AnotherKeyOrNoSignatureIsNotValid) {
  const auto key = make_signing_key();
  const auto other = make_signing_key();
  EXPECT_NE(key.key_id, other.key_id);
  auto record = a_record();
  EXPECT_EQ(check_signature(record, kSignedRecord, {{key.key_id, key.public_hex}}).check,
            SignatureCheck::Unsigned);
  sign_document(record, kSignedRecord, other);
  const auto verdict = check_signature(record, kSignedRecord, {{key.key_id, key.public_hex}});
  EXPECT_EQ(verdict.check, SignatureCheck::UnknownKey);
  EXPECT_EQ(verdict.key_id, other.key_id);
  // Another key under the signer's id: the signature does not match it.
  EXPECT_EQ(check_signature(record, kSignedRecord, {{other.key_id, key.public_hex}}).check,
            SignatureCheck::BadSignature);
}

TEST(Signature, AKeyFilePairingAnIdWithAnotherKeyIsNotBelieved) {
  const auto key = make_signing_key();
  const auto other = make_signing_key();
  const json document = {{"algorithm", "Ed25519"},
                         {"current", key.key_id},
                         {"keys",
                          {{{"key_id", key.key_id}, {"public_key", key.public_hex}},
                           {{"key_id", key.key_id}, {"public_key", other.public_hex}}}}};
  const auto keys = parse_public_keys(document);
  ASSERT_TRUE(keys);
  ASSERT_EQ(keys->size(), 1U);
  EXPECT_EQ(keys->front().public_hex, key.public_hex);
  const auto one = parse_public_keys({{"key_id", other.key_id}, {"public_key", other.public_hex}});
  ASSERT_TRUE(one);
  EXPECT_EQ(one->size(), 1U);
  EXPECT_FALSE(parse_public_keys(json::array()));
  EXPECT_EQ(key_id_of("not hex"), "");
}

}  // namespace
}  // namespace blockfog::protocol
