#include "tools/blockfog-load/ws_wire.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace blockfog::load {
namespace {

constexpr std::string_view kAcceptGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";  // RFC 6455 1.3

std::string base64(const unsigned char* data, std::size_t size) {
  std::string out(4 * ((size + 2) / 3), '\0');
  const int written =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(size));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The value of header `name` in a response head, if it has one.
std::optional<std::string_view> header(std::string_view head, std::string_view name) {
  std::size_t at = head.find("\r\n");
  while (at != std::string_view::npos) {
    const auto begin = at + 2;
    const auto end = head.find("\r\n", begin);
    const auto line = head.substr(begin, end == std::string_view::npos ? end : end - begin);
    const auto colon = line.find(':');
    if (colon != std::string_view::npos && same_name(trimmed(line.substr(0, colon)), name)) {
      return trimmed(line.substr(colon + 1));
    }
    at = end;
  }
  return std::nullopt;
}

std::uint64_t read_big_endian(const unsigned char* p, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = value << 8 | p[i];
  return value;
}

}  // namespace

std::string websocket_key(std::uint64_t random_high, std::uint64_t random_low) {
  std::array<unsigned char, 16> bytes{};
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<unsigned char>(random_high >> (8 * i));
    bytes[8 + i] = static_cast<unsigned char>(random_low >> (8 * i));
  }
  return base64(bytes.data(), bytes.size());
}

std::string upgrade_request(std::string_view host, std::string_view target, std::string_view cookie,
                            std::string_view key) {
  std::string request;
  request.append("GET ").append(target).append(" HTTP/1.1\r\nHost: ").append(host);
  request.append("\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13");
  request.append("\r\nSec-WebSocket-Key: ").append(key);
  request.append("\r\nOrigin: http://").append(host);
  if (!cookie.empty()) request.append("\r\nCookie: ").append(cookie);
  request.append("\r\n\r\n");
  return request;
}

std::optional<std::size_t> response_head_end(std::string_view received) {
  const auto at = received.find("\r\n\r\n");
  if (at == std::string_view::npos) return std::nullopt;
  return at + 4;
}

void check_upgrade_response(std::string_view head, std::string_view key) {
  const auto status_line = head.substr(0, head.find("\r\n"));
  if (status_line.substr(0, 13) != "HTTP/1.1 101 " && status_line != "HTTP/1.1 101") {
    throw WireError("upgrade refused: " + std::string(status_line));
  }
  std::string proof(key);
  proof += kAcceptGuid;
  std::array<unsigned char, SHA_DIGEST_LENGTH> digest{};
  SHA1(reinterpret_cast<const unsigned char*>(proof.data()), proof.size(), digest.data());
  const auto accept = header(head, "Sec-WebSocket-Accept");
  if (!accept || *accept != base64(digest.data(), digest.size())) {
    throw WireError("upgrade answered without this key's Sec-WebSocket-Accept");
  }
}

void append_client_frame(std::string& out, Opcode opcode, std::string_view payload,
                         std::uint32_t mask) {
  const auto size = payload.size();
  out += static_cast<char>(0x80 | static_cast<std::uint8_t>(opcode));  // FIN: never fragmented
  if (size < 126) {
    out += static_cast<char>(0x80 | size);
  } else if (size <= 0xFFFF) {
    out += static_cast<char>(0x80 | 126);
    out += static_cast<char>(size >> 8);
    out += static_cast<char>(size & 0xFF);
  } else {
    out += static_cast<char>(0x80 | 127);
    for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((size >> shift) & 0xFF);
  }
  std::array<unsigned char, 4> key{};
  for (int i = 0; i < 4; ++i) key[i] = static_cast<unsigned char>(mask >> (8 * (3 - i)));
  out.append(reinterpret_cast<const char*>(key.data()), key.size());
  const auto start = out.size();
  out.append(payload);
  // XORed eight bytes at a time: the key repeats every four, so twice over fills a word.
  auto* p = reinterpret_cast<unsigned char*>(out.data() + start);
  std::uint64_t word_key = 0;
  std::array<unsigned char, 8> twice{key[0], key[1], key[2], key[3],
                                     key[0], key[1], key[2], key[3]};
  std::memcpy(&word_key, twice.data(), 8);
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    word ^= word_key;
    std::memcpy(p + i, &word, 8);
  }
  for (; i < size; ++i) p[i] ^= key[i % 4];
}

std::span<char> FrameReader::prepare(std::size_t n) {
  if (begin_ == end_) begin_ = end_ = 0;
  if (buffer_.size() - end_ < n && begin_ > 0) {
    // What is left of a frame moves to the front: the buffer stays the size of the largest read.
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() - end_ < n) buffer_.resize(end_ + n);
  return {buffer_.data() + end_, n};
}

void FrameReader::commit(std::size_t n) { end_ += n; }

void FrameReader::append(std::string_view bytes) {
  const auto room = prepare(bytes.size());
  std::memcpy(room.data(), bytes.data(), bytes.size());
  commit(bytes.size());
}

std::optional<ServerFrame> FrameReader::next() {
  while (true) {
    const auto* p = reinterpret_cast<const unsigned char*>(buffer_.data() + begin_);
    const std::size_t available = end_ - begin_;
    if (available < 2) return std::nullopt;
    const bool fin = (p[0] & 0x80) != 0;
    if ((p[0] & 0x70) != 0) throw WireError("frame with reserved bits set");  // no extensions
    if ((p[1] & 0x80) != 0) throw WireError("masked frame from the server");  // RFC 6455 5.1
    const auto code = p[0] & 0x0F;
    std::size_t header = 2;
    std::uint64_t size = p[1] & 0x7F;
    if (size == 126) {
      header = 4;
    } else if (size == 127) {
      header = 10;
    }
    if (available < header) return std::nullopt;
    if (header > 2) size = read_big_endian(p + 2, static_cast<int>(header - 2));
    const bool control = code >= 8;
    if (control && (!fin || size > 125)) throw WireError("fragmented or long control frame");
    if (code != 0 && code != 1 && code != 2 && code != 8 && code != 9 && code != 10) {
      throw WireError("frame with an unknown opcode");
    }
    const auto so_far = message_opcode_ ? message_.size() : 0;
    if (!control && size > max_message_ - so_far) throw WireError("message over the size limit");
    if (available - header < size) return std::nullopt;
    const std::string_view payload(buffer_.data() + begin_ + header, size);
    begin_ += header + size;
    const auto opcode = static_cast<Opcode>(code);
    if (control) return ServerFrame{opcode, payload};
    if (opcode == Opcode::continuation) {
      if (!message_opcode_) throw WireError("continuation frame with no message begun");
      message_.append(payload);
      if (!fin) continue;
      const auto whole = *message_opcode_;
      message_opcode_.reset();
      return ServerFrame{whole, message_};
    }
    if (message_opcode_) throw WireError("new message before the last one ended");
    if (fin) return ServerFrame{opcode, payload};
    message_opcode_ = opcode;
    message_.assign(payload);
  }
}

}  // namespace blockfog::load
