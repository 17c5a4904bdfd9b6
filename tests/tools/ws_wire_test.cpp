// The load client's WebSocket wire (tools/blockfog-load/ws_wire.h): what it sends must be read
// by a real server as the client meant it, and what a server sends, however the bytes are cut
// up by the network, must come out as the server's messages.

#include "tools/blockfog-load/ws_wire.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace blockfog::load {
namespace {

// A server frame (never masked) by hand.
std::string server_frame(Opcode opcode, std::string_view payload, bool fin = true) {
  std::string out;
  out += static_cast<char>((fin ? 0x80 : 0) | static_cast<int>(opcode));
  const auto n = payload.size();
  if (n < 126) {
    out += static_cast<char>(n);
  } else if (n <= 0xFFFF) {
    out += static_cast<char>(126);
    out += static_cast<char>(n >> 8);
    out += static_cast<char>(n & 0xFF);
  } else {
    out += static_cast<char>(127);
    for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((n >> shift) & 0xFF);
  }
  out += payload;
  return out;
}

std::vector<std::string> all_messages(FrameReader& reader) {
  std::vector<std::string> out;
  while (auto frame = reader.next()) out.emplace_back(frame->payload);
  return out;
}

TEST(WsWire, TheRfcSampleKeyIsAcceptedAndAWrongAcceptIsRefused) {
  // RFC 6455 1.3: this key's accept value.
  const std::string key = "dGhlIHNhbXBsZSBub25jZQ==";
  const std::string head =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
  EXPECT_NO_THROW(check_upgrade_response(head, key));
  EXPECT_THROW(check_upgrade_response(head, "AAAAAAAAAAAAAAAAAAAAAA=="), WireError);
  EXPECT_THROW(check_upgrade_response("HTTP/1.1 403 Forbidden\r\n\r\n", key), WireError);
}

TEST(WsWire, TheRequestAsksForAnUpgradeWithTheKeyAndCookie) {
  const auto request = upgrade_request("127.0.0.1:8080", "/ws/games/7", "sid=abc", "KEY");
  EXPECT_EQ(request.rfind("GET /ws/games/7 HTTP/1.1\r\n", 0), 0u);
  EXPECT_NE(request.find("\r\nSec-WebSocket-Key: KEY\r\n"), std::string::npos);
  EXPECT_NE(request.find("\r\nCookie: sid=abc\r\n"), std::string::npos);
  EXPECT_NE(request.find("\r\nSec-WebSocket-Version: 13\r\n"), std::string::npos);
  EXPECT_EQ(request.substr(request.size() - 4), "\r\n\r\n");
  EXPECT_EQ(upgrade_request("h", "/", "", "K").find("Cookie"), std::string::npos);
  EXPECT_EQ(websocket_key(1, 2).size(), 24u);  // 16 bytes in base64
  EXPECT_NE(websocket_key(1, 2), websocket_key(1, 3));
}

TEST(WsWire, TheHeadEndsAtTheBlankLineAndWhatFollowsIsKept) {
  EXPECT_FALSE(response_head_end("HTTP/1.1 101 OK\r\nA: b\r\n"));
  const std::string received = "HTTP/1.1 101 OK\r\n\r\n\x81\x02hi";
  const auto end = response_head_end(received);
  ASSERT_TRUE(end);
  EXPECT_EQ(received.substr(*end), "\x81\x02hi");
}

// Unmasks a client frame as a server does, checking its header.
std::string unmask(std::string_view frame, Opcode opcode) {
  const auto* p = reinterpret_cast<const unsigned char*>(frame.data());
  EXPECT_EQ(p[0], 0x80 | static_cast<int>(opcode));  // final, no reserved bits
  EXPECT_TRUE(p[1] & 0x80) << "client frames are masked";
  std::size_t size = p[1] & 0x7F;
  std::size_t at = 2;
  if (size == 126) {
    size = std::size_t{p[2]} << 8 | p[3];
    at = 4;
  } else if (size == 127) {
    size = 0;
    for (int i = 0; i < 8; ++i) size = size << 8 | p[2 + i];
    at = 10;
  }
  const auto* key = p + at;
  at += 4;
  EXPECT_EQ(frame.size(), at + size);
  std::string payload(frame.substr(at));
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] ^= static_cast<char>(key[i % 4]);
  return payload;
}

TEST(WsWire, ClientFramesOfEveryLengthUnmaskToThePayload) {
  for (const std::size_t size : {0u, 1u, 7u, 8u, 9u, 125u, 126u, 65535u, 65536u, 70001u}) {
    std::string payload(size, '\0');
    for (std::size_t i = 0; i < size; ++i) payload[i] = static_cast<char>('a' + i % 26);
    std::string out = "prefix";
    append_client_frame(out, Opcode::text, payload, 0xA1B2C3D4);
    ASSERT_EQ(out.substr(0, 6), "prefix");
    EXPECT_EQ(unmask(std::string_view(out).substr(6), Opcode::text), payload) << size;
    if (size >= 8) {
      EXPECT_EQ(out.find(payload.substr(0, 8)), std::string::npos) << "sent unmasked";
    }
  }
  std::string pong;
  append_client_frame(pong, Opcode::pong, "ping data", 7);
  EXPECT_EQ(unmask(pong, Opcode::pong), "ping data");
}

TEST(WsWire, MessagesComeOutWhateverPiecesTheBytesArriveIn) {
  const std::string big(70000, 'x');
  const std::string medium(300, 'm');
  const std::string stream = server_frame(Opcode::text, "{\"a\":1}") +
                             server_frame(Opcode::text, medium) + server_frame(Opcode::text, big);
  for (const std::size_t piece : {1u, 2u, 3u, 10u, 4096u, 100000u}) {
    FrameReader reader;
    std::vector<std::string> got;
    for (std::size_t at = 0; at < stream.size(); at += piece) {
      const auto part = std::string_view(stream).substr(at, piece);
      const auto room = reader.prepare(part.size());
      std::copy(part.begin(), part.end(), room.begin());
      reader.commit(part.size());
      for (auto& message : all_messages(reader)) got.push_back(message);
    }
    ASSERT_EQ(got.size(), 3u) << piece;
    EXPECT_EQ(got[0], "{\"a\":1}");
    EXPECT_EQ(got[1], medium);
    EXPECT_EQ(got[2], big);
  }
}

TEST(WsWire, AFragmentedMessageIsReassembledAroundAPing) {
  FrameReader reader;
  reader.append(server_frame(Opcode::text, "{\"view\":", false));
  reader.append(server_frame(Opcode::ping, "p"));
  reader.append(server_frame(Opcode::continuation, "[1,2]", false));
  reader.append(server_frame(Opcode::continuation, "}"));
  auto ping = reader.next();
  ASSERT_TRUE(ping);
  EXPECT_EQ(ping->opcode, Opcode::ping);
  EXPECT_EQ(ping->payload, "p");
  auto message = reader.next();
  ASSERT_TRUE(message);
  EXPECT_EQ(message->opcode, Opcode::text);
  EXPECT_EQ(message->payload, "{\"view\":[1,2]}");
  EXPECT_FALSE(reader.next());
}

TEST(WsWire, ProtocolBreachesAreRefused) {
  const auto refused = [](const std::string& bytes, std::size_t limit = 1000) {
    FrameReader reader(limit);
    reader.append(bytes);
    try {
      while (reader.next()) {
      }
    } catch (const WireError&) {
      return true;
    }
    return false;
  };
  EXPECT_TRUE(refused("\x81\x82\x01\x02\x03\x04xy"));  // masked by the server
  EXPECT_TRUE(refused("\xC1\x01x"));                   // a reserved bit
  EXPECT_TRUE(refused("\x83\x01x"));                   // opcode 3
  EXPECT_TRUE(refused(server_frame(Opcode::ping, "x", false)));
  EXPECT_TRUE(refused(server_frame(Opcode::ping, std::string(126, 'p'))));
  EXPECT_TRUE(refused(server_frame(Opcode::continuation, "x")));
  EXPECT_TRUE(refused(server_frame(Opcode::text, "a", false) + server_frame(Opcode::text, "b")));
  EXPECT_TRUE(refused(server_frame(Opcode::text, std::string(1001, 'x'))));
  EXPECT_TRUE(refused(server_frame(Opcode::text, std::string(600, 'x'), false) +
                      server_frame(Opcode::continuation, std::string(600, 'x'))));
  EXPECT_FALSE(refused(server_frame(Opcode::text, std::string(1000, 'x'))));
  EXPECT_FALSE(refused(server_frame(Opcode::close, "")));  // handed out: the caller closes
}

}  // namespace
}  // namespace blockfog::load
