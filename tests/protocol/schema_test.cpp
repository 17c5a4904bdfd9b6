// The JSON Schema files describe what the decoders accept and what the encoders produce.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "protocol/http.h"
#include "protocol/messages.h"
#include "tests/protocol/mini_schema.h"

namespace blockfog::protocol {
namespace {

using nlohmann::json;

json load(const std::string& name) {
  std::ifstream in(std::filesystem::path(BLOCKFOG_SCHEMA_DIR) / name);
  EXPECT_TRUE(in) << name;
  return json::parse(in);
}

void expect_valid(const std::string& schema, const json& value) {
  const auto errors = testing::validate(load(schema), value);
  EXPECT_TRUE(errors.empty()) << schema << ": " << value.dump() << "\n  " << errors.front();
}

void expect_invalid(const std::string& schema, const json& value) {
  EXPECT_FALSE(testing::validate(load(schema), value).empty()) << schema << ": " << value.dump();
}

TEST(Schemas, EveryFileIsJsonWithKnownKeywords) {
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(BLOCKFOG_SCHEMA_DIR)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    std::ifstream in(entry.path());
    const json schema = json::parse(in);
    // Validating anything reports keywords the checker (and so this test) does not know.
    for (const auto& e : testing::validate(schema, json::object())) {
      EXPECT_EQ(e.find("unsupported"), std::string::npos) << entry.path() << ": " << e;
    }
  }
  EXPECT_GE(files, 13);
}

TEST(Schemas, ClientMessagesMatchTheirSchemas) {
  expect_valid(
      "client/action.json",
      to_json(ClientMessage{ActionMessage{0, json{{"kind", "play_card"}, {"card", "x"}}, "r1"}}));
  expect_valid("client/chat.json", to_json(ClientMessage{ChatMessage{"hello"}}));
  expect_valid("client/sync.json", to_json(ClientMessage{SyncMessage{3}}));
  expect_valid("client/ping.json", to_json(ClientMessage{PingMessage{}}));
  // What the decoder refuses, the schema refuses too.
  for (const char* bad : {R"({"v":2,"type":"action","seq":1,"action":{"kind":"x"}})",
                          R"({"v":1,"type":"action","seq":-1,"action":{"kind":"x"}})",
                          R"({"v":1,"type":"action","action":{"kind":"x"}})",
                          R"({"v":1,"type":"action","seq":1,"action":{"kind":"x"},"extra":0})"}) {
    expect_invalid("client/action.json", json::parse(bad));
    EXPECT_TRUE(std::holds_alternative<DecodeError>(decode_client(bad))) << bad;
  }
  expect_invalid("client/chat.json", json::parse(R"({"v":1,"type":"chat","text":"  "})"));
}

TEST(Schemas, ServerMessagesMatchTheirSchemas) {
  WelcomeMessage plain{1,       "observer",   "active", std::string(64, 'f'),
                       "alice", std::nullopt, {},       nullptr};
  plain.computer = {{"scotland", nullptr}, {"england", nullptr}};
  expect_valid("server/welcome.json", to_json(ServerMessage{plain}));
  // A game whose dice are being rolled: Scotland revealed, England committed.
  plain.status = "open";
  plain.dice = {
      {"deadline", 1700000000000},
      {"scotland", {{"commitment", std::string(64, 'c')}, {"contribution", std::string(64, 'd')}}},
      {"england", {{"commitment", std::string(64, 'e')}, {"contribution", nullptr}}}};
  expect_valid("server/welcome.json", to_json(ServerMessage{plain}));
  plain.dice["england"]["commitment"] = "not hex";
  expect_invalid("server/welcome.json", to_json(ServerMessage{plain}));
  // A game against the computer, and one where the computer stands in for a timed-out player.
  WelcomeMessage computer{2,       "scotland",        "active", std::string(64, 'f'),
                          "alice", "Computer (hard)", {},       nullptr};
  computer.computer = {{"scotland", nullptr}, {"england", nullptr}};
  computer.computer["england"] = {{"level", "hard"}, {"stand_in", false}};
  expect_valid("server/welcome.json", to_json(ServerMessage{computer}));
  computer.computer["scotland"] = {{"level", "normal"}, {"stand_in", true}};
  expect_valid("server/welcome.json", to_json(ServerMessage{computer}));
  computer.computer["england"] = {{"level", "expert"}, {"stand_in", false}};
  expect_invalid("server/welcome.json", to_json(ServerMessage{computer}));
  expect_valid("server/view.json",
               to_json(ServerMessage{
                   ViewMessage{4,
                               json{{"game", "hots"},
                                    {"role", "scotland"},
                                    {"phase", "card_choice"},
                                    {"awaiting", {"scotland", "england"}},
                                    {"legal_actions", {{{"kind", "play_card"}, {"card", "x"}}}},
                                    {"log_size", 1},
                                    {"log", {{{"i", 0}, {"text", "Year 1297 begins."}}}}},
                               0, std::nullopt, false}}));
  expect_valid("server/view.json",
               to_json(ServerMessage{ViewMessage{5,
                                                 json{{"game", "hots"},
                                                      {"role", "england"},
                                                      {"phase", "move"},
                                                      {"awaiting", {"england"}},
                                                      {"legal_actions", json::array()},
                                                      {"log_size", 3},
                                                      {"log", {{{"i", 2}, {"text", "moved"}}}}},
                                                 2, "a9", true}}));
  // An area of the moving seat's view: its own blocks, one pinned (RULES 4.7), and the enemy's
  // count.
  json pinned_view = {{"game", "hots"},
                      {"role", "scotland"},
                      {"phase", "move"},
                      {"awaiting", {"scotland"}},
                      {"legal_actions", json::array()},
                      {"log_size", 0},
                      {"log", json::array()}};
  pinned_view["areas"] = json::parse(R"([{"id":"mar",
      "england":{"count":2,"moved":0,"reserves":[]},
      "scotland":{"blocks":[{"block":"sco_fraser","moved":false,"reserve":false,"strength":2,
        "pinned":"pinned: 2 enemy blocks in this area hold your 1"}],
        "count":1,"moved":0,"reserves":[]}}])");
  expect_valid("server/view.json",
               to_json(ServerMessage{ViewMessage{6, pinned_view, 0, std::nullopt, false}}));
  pinned_view["areas"][0]["scotland"]["blocks"][0]["pinned"] = true;
  expect_invalid("server/view.json",
                 to_json(ServerMessage{ViewMessage{6, pinned_view, 0, std::nullopt, false}}));
  const json patch = {{"elements", {{"areas", {{3, {{"name", "fife"}}}}}}},
                      {"set", {{"log", {{{"i", 7}, {"text", "moved"}}}}, {"log_size", 8}}},
                      {"unset", {"battle"}}};
  expect_valid("server/view_patch.json",
               to_json(ServerMessage{ViewPatchMessage{6, patch, 7, "a9"}}));
  expect_valid("server/view_patch.json",
               to_json(ServerMessage{ViewPatchMessage{6, json::object(), 7, std::nullopt}}));
  for (const json& bad : {json{{"elements", {{"areas", {3, 4}}}}}, json{{"unset", "battle"}},
                          json{{"set", {{"log_size", -1}}}}, json{{"replace", json::object()}}}) {
    expect_invalid("server/view_patch.json",
                   to_json(ServerMessage{ViewPatchMessage{6, bad, 7, std::nullopt}}));
  }
  expect_valid("server/error.json",
               to_json(ServerMessage{ErrorMessage{ErrorCode::IllegalAction, "why", "a9"}}));
  for (int i = 0; i <= static_cast<int>(ErrorCode::Internal); ++i) {
    expect_valid(
        "server/error.json",
        to_json(ServerMessage{ErrorMessage{static_cast<ErrorCode>(i), "why", std::nullopt}}));
  }
  expect_valid("server/chat.json",
               to_json(ServerMessage{ChatLine{3, "system", std::nullopt, "started", 17}}));
  expect_valid("server/restarting.json", to_json(ServerMessage{RestartingMessage{}}));
  expect_valid("server/pong.json", to_json(ServerMessage{PongMessage{}}));
  expect_valid("server/game_ended.json",
               to_json(ServerMessage{GameEndedMessage{
                   "finished", json{{"winner", "england"}, {"reason", "resigned"}}}}));
  expect_valid("server/game_ended.json", to_json(ServerMessage{GameEndedMessage{"aborted", {}}}));
  const json clock = {{"remaining_ms", 5000},
                      {"bank_ms", 0},
                      {"running", true},
                      {"deadline", 9000},
                      {"vacation_until", nullptr}};
  expect_valid(
      "server/clocks.json",
      to_json(ServerMessage{ClocksMessage{
          {{"time_control", {{"kind", "live"}, {"minutes", 60}, {"increment_seconds", 30}}},
           {"now", 4000},
           {"scotland", clock},
           {"england", clock}}}}));
  expect_valid("server/rematch.json",
               to_json(ServerMessage{RematchMessage{"accepted", "alice", 12}}));
  expect_invalid("server/rematch.json",
                 to_json(ServerMessage{RematchMessage{"maybe", "alice", std::nullopt}}));
  expect_valid("server/moved.json",
               to_json(ServerMessage{MovedMessage{"/n/node-2/ws/games/12", std::nullopt}}));
  expect_valid("server/moved.json", to_json(ServerMessage{MovedMessage{std::nullopt, 900}}));
  expect_invalid("server/moved.json",
                 to_json(ServerMessage{MovedMessage{"https://elsewhere/ws", std::nullopt}}));
  expect_invalid(
      "server/welcome.json",
      to_json(ServerMessage{WelcomeMessage{1, "king", "active", "abc", {}, {}, {}, nullptr}}));
}

TEST(Schemas, HttpBodies) {
  expect_valid("http/credentials.json", json{{"username", "alice"}, {"password", "12345678"}});
  expect_invalid("http/credentials.json", json{{"username", "a b"}, {"password", "12345678"}});
  expect_valid("http/create_game.json",
               json{{"scenario", "braveheart"}, {"side", "random"}, {"visibility", "invite"}});
  expect_invalid("http/create_game.json", json{{"scenario", "braveheart"}, {"side", "wales"}});
  expect_valid("http/create_game.json", json{{"scenario", "braveheart"}, {"observer_chat", true}});
  expect_invalid("http/create_game.json", json{{"scenario", "braveheart"}, {"observer_chat", 1}});
  expect_valid("http/join.json", json::object());
  expect_valid("http/create_game.json",
               json{{"scenario", "braveheart"},
                    {"time_control", {{"kind", "correspondence"}, {"days_per_turn", 3}}}});
  expect_invalid(
      "http/create_game.json",
      json{{"scenario", "braveheart"}, {"time_control", {{"kind", "live"}, {"minutes", 0}}}});
  expect_valid("http/vacation.json", json{{"days", 3}});
  expect_invalid("http/vacation.json", json{{"days", 0}});
  expect_valid("http/vacation_status.json",
               json::parse(R"({"days_per_year":21,"days_left":19,"vacations":[
                 {"starts_at":1780000000000,"ends_at":1780172800000,"automatic":false}]})"));
  expect_invalid("http/vacation_status.json",
                 json::parse(R"({"days_per_year":21,"days_left":19,"vacations":[
                 {"starts_at":1780000000000,"ends_at":1780172800000}]})"));
}

// Tournament bodies as the tournament tests send them (tests/server/tournament_test.cpp).
TEST(Schemas, TournamentBodies) {
  const json swiss = {{"name", "Winter Swiss"}, {"scenario", "braveheart"},
                      {"format", "swiss"},      {"rounds", 5},
                      {"sides", "lot"},         {"round_deadline_minutes", 10080},
                      {"rated", true},          {"registration_closes_at", 1800000000000},
                      {"max_players", 16}};
  expect_valid("http/tournament_create.json", swiss);
  auto bad = swiss;
  bad["format"] = "knockout";
  expect_invalid("http/tournament_create.json", bad);
  bad = swiss;
  bad["sides"] = "bid";
  expect_invalid("http/tournament_create.json", bad);
  bad = swiss;
  bad.erase("max_players");
  expect_invalid("http/tournament_create.json", bad);
  // A time control as a casual game's, its vacation rule the tournament's own flag.
  auto clocked = swiss;
  clocked["time_control"] = {{"kind", "correspondence"}, {"days_per_turn", 3}, {"bank_days", 7}};
  clocked["vacation"] = false;
  clocked["rounds_by_hand"] = true;
  expect_valid("http/tournament_create.json", clocked);
  bad = clocked;
  bad["time_control"]["vacation"] = false;
  expect_invalid("http/tournament_create.json", bad);
  bad = clocked;
  bad["time_control"] = {{"kind", "live"}, {"minutes", 0}};
  expect_invalid("http/tournament_create.json", bad);
  expect_valid("http/tournament_forfeit.json", json{{"game_id", 3}, {"winner", "england"}});
  expect_valid("http/tournament_forfeit.json", json{{"game_id", 3}, {"reason", "adjudicated"}});
  expect_invalid("http/tournament_forfeit.json", json{{"game_id", 3}, {"winner", "wales"}});
  expect_valid("http/tournament_extend.json", json{{"minutes", 90}});
  expect_invalid("http/tournament_extend.json", json{{"minutes", 0}});
  expect_valid("http/tournament_note.json", json{{"text", "play nicely"}});
  expect_invalid("http/tournament_note.json", json{{"text", ""}});
  expect_valid("http/tournament_remove.json", json{{"player", "ann"}});
  expect_invalid("http/tournament_remove.json", json::object());
}

// Turn notices: what the decoder takes, the schema takes, and what it refuses, the schema
// refuses too (except what the server checks beyond types: the URL and the address).
TEST(Schemas, NoticeBodies) {
  for (const char* good : {R"({})", R"({"webhook_url":null})",
                           R"({"webhook_url":"https://x.example/h","webhook":true})",
                           R"({"email":false,"digest_hours":168})"}) {
    expect_valid("http/notice_preferences.json", json::parse(good));
    EXPECT_TRUE(std::holds_alternative<NoticePreferences>(decode_notice_preferences(good))) << good;
  }
  for (const char* bad : {R"({"digest_hours":169})", R"({"digest_hours":-1})", R"({"email":1})",
                          R"({"webhook_url":3})", R"({"colour":"red"})"}) {
    expect_invalid("http/notice_preferences.json", json::parse(bad));
    EXPECT_TRUE(std::holds_alternative<DecodeError>(decode_notice_preferences(bad))) << bad;
  }
  for (const char* good : {R"({"email":"a@example.org"})", R"({"email":null})"}) {
    expect_valid("http/notice_email.json", json::parse(good));
    EXPECT_TRUE(std::holds_alternative<NoticeEmailRequest>(decode_notice_email(good))) << good;
  }
  for (const char* bad : {R"({})", R"({"email":5})", R"({"email":"a@b.c","x":1})"}) {
    expect_invalid("http/notice_email.json", json::parse(bad));
    EXPECT_TRUE(std::holds_alternative<DecodeError>(decode_notice_email(bad))) << bad;
  }
  expect_valid("notices/settings.json",
               json::parse(R"({"notices":{"email":null,"email_pending":"a@example.org",
                 "webhook_url":null,"channels":{"email":false,"webhook":false},
                 "digest_hours":0,"email_available":true}})"));
  expect_valid("notices/webhook.json",
               json::parse(R"({"username":"Blockfog","content":"c","text":"c","blockfog":{
                 "game":3,"role":"scotland","year":1297,"turn":2,"phase_text":"Scotland: winter",
                 "url":"https://blockfog.example/#/game/3","notice_id":17}})"));
  expect_valid("notices/webhook.json",
               json::parse(R"({"username":"Blockfog","content":"c","text":"c","blockfog":{
                 "game":3,"role":"scotland","year":1297,"turn":2,"phase_text":"Scotland: winter",
                 "happened":["England moved a block from Northumbria to Lothian."],"more":0,
                 "url":"https://blockfog.example/#/game/3","notice_id":17}})"));
  expect_invalid("notices/webhook.json",
                 json::parse(R"({"username":"Blockfog","content":"c","text":"c","blockfog":{
                 "game":3,"role":"scotland","year":1297,"turn":2,"phase_text":"x","url":"u",
                 "happened":[{"audience":"england_only"}],"notice_id":17}})"));
  expect_invalid("notices/webhook.json",
                 json::parse(R"({"username":"Blockfog","content":"c","text":"c","blockfog":{
                 "game":3,"role":"scotland","year":1297,"turn":2,"phase_text":"x","url":"u",
                 "notice_id":17,"blocks":["wallace"]}})"));
  // Without its id a receiver could not drop a repeated delivery.
  expect_invalid("notices/webhook.json",
                 json::parse(R"({"username":"Blockfog","content":"c","text":"c","blockfog":{
                 "game":3,"role":"scotland","year":1297,"turn":2,"phase_text":"x","url":"u"}})"));
}

TEST(Schemas, NotesBody) {
  for (const char* good :
       {R"({"text":""})", R"({"text":"Wallace to Fife in 1298?\nWatch Lanark."})"}) {
    expect_valid("http/notes.json", json::parse(good));
    const auto decoded = decode_notes(good);
    ASSERT_TRUE(std::holds_alternative<NotesRequest>(decoded)) << good;
    EXPECT_EQ(std::get<NotesRequest>(decoded).text, json::parse(good)["text"]);
  }
  for (const char* bad : {R"({})", R"({"text":5})", R"({"text":null})", R"({"text":"a","x":1})"}) {
    expect_invalid("http/notes.json", json::parse(bad));
    EXPECT_TRUE(std::holds_alternative<DecodeError>(decode_notes(bad))) << bad;
  }
  // At the limit it is taken; one byte over, it is too large (413), as an over-long body is.
  const std::string at_limit = json{{"text", std::string(kMaxNotesBytes, 'n')}}.dump();
  EXPECT_TRUE(std::holds_alternative<NotesRequest>(decode_notes(at_limit)));
  const std::string over = json{{"text", std::string(kMaxNotesBytes + 1, 'n')}}.dump();
  const auto refused = decode_notes(over);
  ASSERT_TRUE(std::holds_alternative<DecodeError>(refused));
  EXPECT_EQ(std::get<DecodeError>(refused).code, ErrorCode::FrameTooLarge);
}

}  // namespace
}  // namespace blockfog::protocol
