#pragma once

// Signed documents (docs/records.md, "Signatures"): a finished game's record and a tournament
// bundle's manifest carry an Ed25519 signature by the server's signing key, so that whoever
// holds the server's public key can tell a document the server produced from one edited since.
// The server signs, hots-replay verifies; both use this code, so they agree on the bytes.
//
// What is signed: the domain line "blockfog-signed/1 KIND\n" followed by the document without
// its "signature" member, serialised with sorted keys, no white space and UTF-8 as it is
// (nlohmann::json's dump()). The domain keeps a signature made for one kind of document from
// passing for another. The signature sits in the document as
//   "signature": {"algorithm": "Ed25519", "key_id": "<32 hex>", "value": "<128 hex>"}
// A key's id is the first 16 bytes of the SHA-256 of its 32-byte public key, in hex: an id
// names one key, so a verifier may pin an id instead of carrying the key.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace blockfog::protocol {

inline constexpr std::string_view kSignatureAlgorithm = "Ed25519";
// The kinds of signed documents.
inline constexpr std::string_view kSignedRecord = "record";
inline constexpr std::string_view kSignedManifest = "tournament-manifest";

// An Ed25519 key pair, raw keys in lowercase hex (32 bytes each).
struct SigningKey {
  std::string key_id;
  std::string public_hex;
  std::string private_hex;
};

// A public key a verifier trusts.
struct PublicKey {
  std::string key_id;
  std::string public_hex;
};

// A fresh key pair from OpenSSL's CSPRNG. Throws std::runtime_error if OpenSSL fails.
SigningKey make_signing_key();
// The id of a 32-byte public key given in hex; empty if it is not 64 hex digits.
std::string key_id_of(std::string_view public_hex);

// The bytes a signature of `document` (of `kind`) covers.
std::string signed_bytes(const nlohmann::json& document, std::string_view kind);

// Adds (or replaces) `document`'s "signature" by `key`. Throws std::runtime_error if OpenSSL
// fails or the key is malformed.
void sign_document(nlohmann::json& document, std::string_view kind, const SigningKey& key);

enum class SignatureCheck {
  Valid,
  Unsigned,      // no "signature" member, or one that is not as above
  UnknownKey,    // signed by a key not among those trusted
  BadSignature,  // the trusted key's signature does not match the bytes: changed since
};

struct SignatureVerdict {
  SignatureCheck check = SignatureCheck::Unsigned;
  std::string key_id;  // the signature's key id, when it names one
};

// Checks `document`'s signature against the `trusted` keys.
SignatureVerdict check_signature(const nlohmann::json& document, std::string_view kind,
                                 const std::vector<PublicKey>& trusted);

// The keys of a server-key document as GET /api/server-key serves it
// ({"algorithm":"Ed25519","current":ID,"keys":[{"key_id","public_key",...}]}) or of one of its
// keys alone ({"key_id","public_key"}). A key whose id does not match its public key is left
// out. Nothing when the document has neither form.
std::optional<std::vector<PublicKey>> parse_public_keys(const nlohmann::json& document);

}  // namespace blockfog::protocol
