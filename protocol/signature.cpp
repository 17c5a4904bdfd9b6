#include "protocol/signature.h"

#include <openssl/evp.h>

#include <array>
#include <memory>
#include <stdexcept>

#include "rules/core/hex.h"
#include "rules/core/sha256.h"

namespace blockfog::protocol {
namespace {

using nlohmann::json;

constexpr std::size_t kKeyBytes = 32;
constexpr std::size_t kSignatureBytes = 64;
constexpr std::size_t kKeyIdBytes = 16;

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

std::string to_hex(const unsigned char* bytes, std::size_t size) {
  return core::to_hex(std::span<const std::uint8_t>(bytes, size));
}

// Lowercase only, unlike core::from_hex: one spelling per key and signature.
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // lowercase only: one spelling per key and signature
}

// `hex` as `size` bytes, or nothing if it is not exactly 2 * size lowercase hex digits.
std::optional<std::vector<unsigned char>> from_hex(std::string_view hex, std::size_t size) {
  if (hex.size() != size * 2) return std::nullopt;
  std::vector<unsigned char> bytes(size);
  for (std::size_t i = 0; i < size; ++i) {
    const int high = hex_digit(hex[2 * i]);
    const int low = hex_digit(hex[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes[i] = static_cast<unsigned char>(high << 4 | low);
  }
  return bytes;
}

std::string domain_line(std::string_view kind) {
  return "blockfog-signed/1 " + std::string(kind) + "\n";
}

}  // namespace

SigningKey make_signing_key() {
  Pkey key(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
  if (!key) throw std::runtime_error("OpenSSL could not make an Ed25519 key");
  std::array<unsigned char, kKeyBytes> public_key{};
  std::array<unsigned char, kKeyBytes> private_key{};
  std::size_t public_size = public_key.size();
  std::size_t private_size = private_key.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), public_key.data(), &public_size) != 1 ||
      EVP_PKEY_get_raw_private_key(key.get(), private_key.data(), &private_size) != 1 ||
      public_size != kKeyBytes || private_size != kKeyBytes) {
    throw std::runtime_error("OpenSSL could not export the Ed25519 key");
  }
  SigningKey made;
  made.public_hex = to_hex(public_key.data(), public_key.size());
  made.private_hex = to_hex(private_key.data(), private_key.size());
  made.key_id = key_id_of(made.public_hex);
  OPENSSL_cleanse(private_key.data(), private_key.size());
  return made;
}

std::string key_id_of(std::string_view public_hex) {
  const auto bytes = from_hex(public_hex, kKeyBytes);
  if (!bytes) return {};
  const auto digest =
      core::sha256(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  return to_hex(digest.data(), kKeyIdBytes);
}

std::string signed_bytes(const json& document, std::string_view kind) {
  if (!document.is_object() || !document.contains("signature")) {
    return domain_line(kind) + document.dump();
  }
  auto unsigned_copy = document;
  unsigned_copy.erase("signature");
  return domain_line(kind) + unsigned_copy.dump();
}

void sign_document(json& document, std::string_view kind, const SigningKey& key) {
  const auto private_key = from_hex(key.private_hex, kKeyBytes);
  if (!private_key) throw std::runtime_error("the signing key is malformed");
  Pkey pkey(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, private_key->data(),
                                         private_key->size()));
  MdCtx ctx(EVP_MD_CTX_new());
  const auto message = signed_bytes(document, kind);
  std::array<unsigned char, kSignatureBytes> signature{};
  std::size_t size = signature.size();
  // Ed25519 hashes the message itself: no digest is named, and it is signed in one call.
  if (!pkey || !ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) != 1 ||
      EVP_DigestSign(ctx.get(), signature.data(), &size,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1 ||
      size != kSignatureBytes) {
    throw std::runtime_error("OpenSSL could not sign a document");
  }
  document["signature"] = {{"algorithm", kSignatureAlgorithm},
                           {"key_id", key.key_id},
                           {"value", to_hex(signature.data(), size)}};
}

SignatureVerdict check_signature(const json& document, std::string_view kind,
                                 const std::vector<PublicKey>& trusted) {
  SignatureVerdict verdict;
  if (!document.is_object()) return verdict;
  const auto found = document.find("signature");
  if (found == document.end() || !found->is_object()) return verdict;
  const auto& signature = *found;
  const auto algorithm = signature.find("algorithm");
  const auto key_id = signature.find("key_id");
  const auto value = signature.find("value");
  if (algorithm == signature.end() || *algorithm != kSignatureAlgorithm ||
      key_id == signature.end() || !key_id->is_string() || value == signature.end() ||
      !value->is_string()) {
    return verdict;
  }
  verdict.key_id = key_id->get<std::string>();
  const PublicKey* key = nullptr;
  for (const auto& candidate : trusted) {
    if (candidate.key_id == verdict.key_id) key = &candidate;
  }
  if (!key) {
    verdict.check = SignatureCheck::UnknownKey;
    return verdict;
  }
  verdict.check = SignatureCheck::BadSignature;
  const auto public_key = from_hex(key->public_hex, kKeyBytes);
  const auto bytes = from_hex(value->get<std::string>(), kSignatureBytes);
  if (!public_key || !bytes) return verdict;
  Pkey pkey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, public_key->data(),
                                        public_key->size()));
  MdCtx ctx(EVP_MD_CTX_new());
  const auto message = signed_bytes(document, kind);
  if (pkey && ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) == 1 &&
      EVP_DigestVerify(ctx.get(), bytes->data(), bytes->size(),
                       reinterpret_cast<const unsigned char*>(message.data()),
                       message.size()) == 1) {
    verdict.check = SignatureCheck::Valid;
  }
  return verdict;
}

std::optional<std::vector<PublicKey>> parse_public_keys(const json& document) {
  if (!document.is_object()) return std::nullopt;
  const auto one = [](const json& entry) -> std::optional<PublicKey> {
    if (!entry.is_object()) return std::nullopt;
    const auto id = entry.find("key_id");
    const auto hex = entry.find("public_key");
    if (id == entry.end() || hex == entry.end() || !id->is_string() || !hex->is_string()) {
      return std::nullopt;
    }
    PublicKey key{id->get<std::string>(), hex->get<std::string>()};
    // An id is the key's hash: a file that pairs an id with another key is not believed.
    if (key_id_of(key.public_hex) != key.key_id) return std::nullopt;
    return key;
  };
  std::vector<PublicKey> keys;
  if (const auto list = document.find("keys"); list != document.end() && list->is_array()) {
    for (const auto& entry : *list) {
      if (auto key = one(entry)) keys.push_back(std::move(*key));
    }
    return keys;
  }
  if (auto key = one(document)) {
    keys.push_back(std::move(*key));
    return keys;
  }
  return std::nullopt;
}

}  // namespace blockfog::protocol
