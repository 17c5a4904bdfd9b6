// Decoding untrusted client messages: every bad input has its own typed error, and every
// message survives an encode/decode round trip.

#include <gtest/gtest.h>

#include <string>

#include "protocol/http.h"
#include "protocol/messages.h"

namespace blockfog::protocol {
namespace {

using nlohmann::json;

ErrorCode client_error(std::string_view text) {
  const auto decoded = decode_client(text);
  const auto* error = std::get_if<DecodeError>(&decoded);
  if (!error) {
    ADD_FAILURE() << "accepted: " << text;
    return ErrorCode::Internal;
  }
  EXPECT_FALSE(error->message.empty());
  return error->code;
}

TEST(ClientMessages, DecodesAnAction) {
  const auto decoded =
      decode_client(R"({"v":1,"type":"action","seq":7,"action":{"kind":"play_card","card":"c1"}})");
  const auto& m = std::get<ActionMessage>(std::get<ClientMessage>(decoded));
  EXPECT_EQ(m.seq, 7);
  EXPECT_EQ(m.action.at("kind"), "play_card");
  EXPECT_FALSE(m.ref);
}

TEST(ClientMessages, AnActionMayCarryAShortRef) {
  const auto decoded = decode_client(
      R"({"v":1,"type":"action","seq":7,"ref":"a1","action":{"kind":"play_card","card":"c1"}})");
  EXPECT_EQ(std::get<ActionMessage>(std::get<ClientMessage>(decoded)).ref, "a1");
  const std::string long_ref(65, 'r');
  EXPECT_EQ(client_error(R"({"v":1,"type":"action","seq":7,"ref":")" + long_ref +
                         R"(","action":{"kind":"pass"}})"),
            ErrorCode::BadField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"action","seq":7,"ref":3,"action":{"kind":"pass"}})"),
            ErrorCode::BadField);
}

TEST(ClientMessages, DecodesChatSyncAndPing) {
  EXPECT_EQ(std::get<ChatMessage>(
                std::get<ClientMessage>(decode_client(R"({"v":1,"type":"chat","text":"hello"})")))
                .text,
            "hello");
  EXPECT_EQ(std::get<SyncMessage>(
                std::get<ClientMessage>(decode_client(R"({"v":1,"type":"sync","chat_since":4})")))
                .chat_since,
            4);
  EXPECT_TRUE(std::holds_alternative<PingMessage>(
      std::get<ClientMessage>(decode_client(R"({"v":1,"type":"ping"})"))));
}

TEST(ClientMessages, EachBadInputHasItsTypedError) {
  EXPECT_EQ(client_error("{not json"), ErrorCode::MalformedJson);
  EXPECT_EQ(client_error("[1,2]"), ErrorCode::MalformedJson);
  EXPECT_EQ(client_error("\"text\""), ErrorCode::MalformedJson);
  EXPECT_EQ(client_error("{\"v\":1,\"type\":\"chat\",\"text\":\"\xff\xfe\"}"),
            ErrorCode::MalformedJson);
  EXPECT_EQ(client_error(std::string(100, '[') + std::string(100, ']')), ErrorCode::MalformedJson);
  EXPECT_EQ(client_error(R"({"type":"ping"})"), ErrorCode::MissingField);
  EXPECT_EQ(client_error(R"({"v":2,"type":"ping"})"), ErrorCode::WrongVersion);
  EXPECT_EQ(client_error(R"({"v":"1","type":"ping"})"), ErrorCode::WrongVersion);
  EXPECT_EQ(client_error(R"({"v":1})"), ErrorCode::MissingField);
  EXPECT_EQ(client_error(R"({"v":1,"type":7})"), ErrorCode::BadField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"launch_missiles"})"), ErrorCode::UnknownType);
  EXPECT_EQ(client_error(R"({"v":1,"type":"action","action":{"kind":"pass"}})"),
            ErrorCode::MissingField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"action","seq":1})"), ErrorCode::MissingField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"action","seq":-1,"action":{}})"), ErrorCode::BadField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"action","seq":1.5,"action":{}})"), ErrorCode::BadField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"action","seq":1,"action":[]})"), ErrorCode::BadField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"action","seq":1,"action":{},"x":1})"),
            ErrorCode::BadField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"chat","text":"   "})"), ErrorCode::BadField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"chat","text":")" + std::string(1001, 'a') + "\"}"),
            ErrorCode::BadField);
  EXPECT_EQ(client_error(R"({"v":1,"type":"chat","text":")" +
                         std::string(kMaxClientFrameBytes, 'a') + "\"}"),
            ErrorCode::FrameTooLarge);
}

TEST(ClientMessages, RoundTrip) {
  const ClientMessage messages[] = {
      ActionMessage{3, json{{"kind", "move"}, {"block", "sco_wallace"}, {"to", "lothian"}},
                    std::nullopt},
      ActionMessage{4, json{{"kind", "pass"}}, "a4"}, ChatMessage{"good luck"}, SyncMessage{12},
      PingMessage{}};
  for (const auto& m : messages) {
    const auto decoded = decode_client(encode(m));
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(decoded)) << encode(m);
    EXPECT_EQ(to_json(std::get<ClientMessage>(decoded)), to_json(m));
  }
}

TEST(ServerMessages, RoundTrip) {
  const ServerMessage messages[] = {
      WelcomeMessage{5,
                     "england",
                     "active",
                     std::string(64, 'a'),
                     "alice",
                     std::nullopt,
                     {{"scotland", nullptr}, {"england", nullptr}},
                     nullptr},
      WelcomeMessage{
          5,
          "england",
          "open",
          std::string(64, 'a'),
          "Computer (easy)",
          "bob",
          {{"scotland", {{"level", "easy"}, {"stand_in", false}}}, {"england", nullptr}},
          {{"deadline", 1700000000000},
           {"scotland", {{"commitment", std::string(64, 'c')}, {"contribution", nullptr}}},
           {"england", {{"commitment", nullptr}, {"contribution", nullptr}}}}},
      ViewMessage{9, json{{"game", "hots"}}, 0, std::nullopt, false},
      ViewMessage{10, json{{"game", "hots"}}, 4, "a17", true},
      ViewPatchMessage{11, json{{"set", {{"phase", "move"}}}}, 4, std::nullopt},
      ViewPatchMessage{12, json::object(), 0, "a19"},
      ErrorMessage{ErrorCode::IllegalAction, "no", std::nullopt},
      ErrorMessage{ErrorCode::IllegalAction, "no", "a18"},
      ChatLine{1, "scotland", "alice", "hi", 1700000000000},
      ChatLine{2, "system", std::nullopt, "game started", 1700000000001},
      RestartingMessage{},
      PongMessage{},
      GameEndedMessage{"finished", json{{"winner", "england"}, {"reason", "timeout"}}},
      GameEndedMessage{"aborted", nullptr},
      ClocksMessage{json{{"now", 5}}},
      RematchMessage{"offered", "alice", std::nullopt},
      RematchMessage{"accepted", "alice", 8},
      MovedMessage{"/n/b/ws/games/7", std::nullopt},
      MovedMessage{std::nullopt, 1200}};
  for (const auto& m : messages) {
    const auto decoded = decode_server(encode(m));
    ASSERT_TRUE(std::holds_alternative<ServerMessage>(decoded)) << encode(m);
    EXPECT_EQ(to_json(std::get<ServerMessage>(decoded)), to_json(m));
  }
}

TEST(ServerMessages, AMovedFrameSaysWhereOrWhenButNotBoth) {
  const auto both = decode_server(R"({"v":1,"type":"moved","ws":"/n/b/ws/games/1","retry_ms":5})");
  ASSERT_TRUE(std::holds_alternative<DecodeError>(both));
  EXPECT_EQ(std::get<DecodeError>(both).code, ErrorCode::BadField);
  EXPECT_TRUE(std::holds_alternative<DecodeError>(decode_server(R"({"v":1,"type":"moved"})")));
}

TEST(ErrorCodes, NamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(ErrorCode::Internal); ++i) {
    const auto code = static_cast<ErrorCode>(i);
    EXPECT_EQ(error_code_from_name(error_code_name(code)), code);
  }
}

TEST(HttpBodies, Credentials) {
  const auto ok = decode_credentials(R"({"username":"Robert_the-Bruce","password":"bannockburn"})");
  EXPECT_EQ(std::get<Credentials>(ok).username, "Robert_the-Bruce");
  for (const char* bad : {R"({"username":"ab","password":"longenough"})",
                          R"({"username":"rob ert","password":"longenough"})",
                          R"({"username":"Ã©tienne","password":"longenough"})",
                          R"({"username":"robert","password":"short"})",
                          R"({"username":"robert","password":"longenough","admin":true})"}) {
    const auto decoded = decode_credentials(bad);
    ASSERT_TRUE(std::holds_alternative<DecodeError>(decoded)) << bad;
    EXPECT_EQ(std::get<DecodeError>(decoded).code, ErrorCode::BadField) << bad;
  }
  EXPECT_EQ(std::get<DecodeError>(decode_credentials(R"({"username":"robert"})")).code,
            ErrorCode::MissingField);
}

TEST(HttpBodies, CreateGameAndJoin) {
  const auto r = std::get<CreateGameRequest>(decode_create_game(
      R"({"scenario":"braveheart","side":"england","visibility":"invite","options":{}})"));
  EXPECT_EQ(r.side, SideChoice::England);
  EXPECT_EQ(r.visibility, VisibilityChoice::Invite);
  const auto defaults = std::get<CreateGameRequest>(decode_create_game(R"({"scenario":"bruce"})"));
  EXPECT_EQ(defaults.side, SideChoice::Random);
  EXPECT_EQ(defaults.visibility, VisibilityChoice::Public);
  EXPECT_FALSE(defaults.observer_chat);
  EXPECT_TRUE(std::get<CreateGameRequest>(
                  decode_create_game(R"({"scenario":"bruce","observer_chat":true})"))
                  .observer_chat);
  EXPECT_EQ(
      std::get<DecodeError>(decode_create_game(R"({"scenario":"bruce","observer_chat":"yes"})"))
          .code,
      ErrorCode::BadField);
  EXPECT_EQ(
      std::get<DecodeError>(decode_create_game(R"({"scenario":"bruce","side":"france"})")).code,
      ErrorCode::BadField);
  EXPECT_FALSE(std::get<JoinRequest>(decode_join("")).invite);
  EXPECT_EQ(std::get<JoinRequest>(decode_join(R"({"invite":"abc"})")).invite, "abc");
}

// A patch applies to the view it was made for, and one that does not fit changes nothing.
TEST(ViewPatches, ApplyToTheViewTheyWereMadeFor) {
  const json held = {{"areas", {1, 2, 3}},
                     {"battle", "fife"},
                     {"log", {{{"i", 0}, {"text", "a"}}, {{"i", 1}, {"text", "b"}}}},
                     {"log_size", 2},
                     {"phase", "battle"}};
  json view = held;
  ASSERT_TRUE(apply_view_patch(view, ViewPatchMessage{5,
                                                      json{{"elements", {{"areas", {{1, 20}}}}},
                                                           {"set",
                                                            {{"log", {{{"i", 1}, {"text", "c"}}}},
                                                             {"log_size", 2},
                                                             {"move", true},
                                                             {"phase", "move"}}},
                                                           {"unset", {"battle"}}},
                                                      1, std::nullopt}));
  EXPECT_EQ(view, json({{"areas", {1, 20, 3}},
                        {"log", {{{"i", 0}, {"text", "a"}}, {{"i", 1}, {"text", "c"}}}},
                        {"log_size", 2},
                        {"move", true},
                        {"phase", "move"}}));
  // An undo: a line taken back, none added.
  view = held;
  ASSERT_TRUE(apply_view_patch(view, ViewPatchMessage{5, json{{"set", {{"log_size", 1}}}}, 1, {}}));
  EXPECT_EQ(view["log"], json({{{"i", 0}, {"text", "a"}}}));

  for (const json& misfit :
       {json{{"elements", {{"areas", {{3, 0}}}}}}, json{{"elements", {{"phase", {{0, 0}}}}}},
        json{{"elements", {{"areas", {{-1, 0}}}}}}, json{{"unset", {"move"}}},
        json{{"unset", "battle"}}, json{{"set", {{"log", "x"}}}}, json{{"other", json::object()}},
        json{{"set", 1}}}) {
    view = held;
    EXPECT_FALSE(apply_view_patch(view, ViewPatchMessage{5, misfit, 2, {}})) << misfit;
    EXPECT_EQ(view, held) << misfit;
  }
  view = held;
  EXPECT_FALSE(apply_view_patch(view, ViewPatchMessage{5, json::object(), 3, {}}))
      << "a log_from past the log held";
}

}  // namespace
}  // namespace blockfog::protocol
