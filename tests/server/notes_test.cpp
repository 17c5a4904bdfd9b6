// Private notes (docs/protocol.md, "Private notes") through the real server: each seat of a
// game keeps its own notepad, which nobody else can read or change (the opponent, an observer,
// the tournament's organiser, a stranger), and which no record, export or game description
// carries. A refused write changes nothing.

#include <gtest/gtest.h>

#include <string>

#include "protocol/http.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/server/test_client.h"
#include "tests/server/tournament_helpers.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

const std::string kScotNotes = "Wallace winters in Selkirk; Lanark is bait. \xe2\x9c\x93";
const std::string kEngNotes = "Percy holds Berwick until 1298.\nWatch Fife.";

std::string notes_path(std::int64_t game_id) {
  return "/api/games/" + std::to_string(game_id) + "/notes";
}

HttpResult put_notes(HttpClient& client, std::int64_t game_id, const json& body,
                     const std::map<std::string, std::string>& headers = {}) {
  auto all = headers;
  all.emplace("Content-Type", "application/json");
  return client.request("PUT", notes_path(game_id), body.dump(), all);
}

std::string notes_of(HttpClient& client, std::int64_t game_id) {
  const auto r = client.get(notes_path(game_id));
  EXPECT_EQ(r.status, 200) << r.body;
  return r.json().value("text", "<none>");
}

class PrivateNotes : public ::testing::Test {
 protected:
  void SetUp() override { server_ = std::make_unique<ServerProcess>(dir_.path()); }
  int port() const { return server_->port(); }

  TempDir dir_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(PrivateNotes, EachSeatReadsAndWritesOnlyItsOwn) {
  TableFeatures features;
  features.tournament = true;
  Table table(port(), "notes", features);
  const auto id = table.game_id;
  auto watcher = register_user(port(), "notes_watcher");

  // Nothing written yet: an empty notepad.
  const auto empty = table.scot_http.get(notes_path(id));
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_EQ(empty.json(), (json{{"text", ""}, {"updated_at", nullptr}}));

  const auto saved = put_notes(table.scot_http, id, {{"text", kScotNotes}});
  ASSERT_EQ(saved.status, 200) << saved.body;
  EXPECT_EQ(saved.json()["text"], kScotNotes);
  EXPECT_TRUE(saved.json()["updated_at"].is_number_integer());
  // The opponent's notepad is his own: still empty, then his text, neither touching the other.
  EXPECT_EQ(notes_of(table.eng_http, id), "");
  ASSERT_EQ(put_notes(table.eng_http, id, {{"text", kEngNotes}}).status, 200);
  EXPECT_EQ(notes_of(table.scot_http, id), kScotNotes);
  EXPECT_EQ(notes_of(table.eng_http, id), kEngNotes);

  // Nobody else reads or writes either seat's notes: an observer's account, the tournament's
  // organiser.
  for (auto* other : {&watcher, &*table.organiser_http}) {
    const auto read = other->get(notes_path(id));
    EXPECT_EQ(read.status, 403) << read.body;
    EXPECT_EQ(read.error_code(), "not_seated");
    EXPECT_EQ(read.body.find("Wallace"), std::string::npos);
    const auto write = put_notes(*other, id, {{"text", "mine now"}});
    EXPECT_EQ(write.status, 403) << write.body;
    EXPECT_EQ(write.error_code(), "not_seated");
  }
  HttpClient anonymous(port());
  EXPECT_EQ(anonymous.get(notes_path(id)).status, 401);
  EXPECT_EQ(put_notes(anonymous, id, {{"text", "x"}}).status, 401);
  const auto unknown = table.scot_http.get(notes_path(999'999));
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.error_code(), "not_found");

  // Refused writes change nothing: over the limit, a body that is not {"text": string}, a
  // request from another site.
  const auto over =
      put_notes(table.scot_http, id, {{"text", std::string(protocol::kMaxNotesBytes + 1, 'x')}});
  EXPECT_EQ(over.status, 413) << over.body;
  EXPECT_EQ(over.error_code(), "frame_too_large");
  const auto wrong = put_notes(table.scot_http, id, {{"text", 7}});
  EXPECT_EQ(wrong.status, 400);
  EXPECT_EQ(wrong.error_code(), "bad_field");
  const auto cross = put_notes(table.scot_http, id, {{"text", "from elsewhere"}},
                               {{"Origin", "https://evil.example"}});
  EXPECT_EQ(cross.status, 403);
  EXPECT_EQ(cross.error_code(), "forbidden");
  EXPECT_EQ(notes_of(table.scot_http, id), kScotNotes);
  EXPECT_EQ(notes_of(table.eng_http, id), kEngNotes);
  // At the limit it is taken.
  const std::string longest(protocol::kMaxNotesBytes, 'n');
  EXPECT_EQ(put_notes(table.eng_http, id, {{"text", longest}}).status, 200);
  EXPECT_EQ(notes_of(table.eng_http, id), longest);
  ASSERT_EQ(put_notes(table.eng_http, id, {{"text", kEngNotes}}).status, 200);

  // The game ends (and with it the tournament): the notes stay each seat's, and neither the
  // record, the game's description nor the tournament's bundle carries them.
  const auto resigned =
      table.scot_http.post("/api/games/" + std::to_string(id) + "/resign", json::object());
  ASSERT_EQ(resigned.status, 200) << resigned.body;
  EXPECT_EQ(notes_of(table.scot_http, id), kScotNotes);
  EXPECT_EQ(notes_of(table.eng_http, id), kEngNotes);
  EXPECT_EQ(watcher.get(notes_path(id)).status, 403);
  const auto record = watcher.get("/api/games/" + std::to_string(id) + "/record");
  ASSERT_EQ(record.status, 200) << record.body;
  const auto details = watcher.get("/api/games/" + std::to_string(id));
  ASSERT_EQ(details.status, 200);
  const auto exported =
      watcher.get("/api/tournaments/" + std::to_string(table.tournament_id) + "/export");
  ASSERT_EQ(exported.status, 200) << exported.body;
  const auto files = bundle_files(exported.body);
  ASSERT_TRUE(files.contains("games/" + std::to_string(id) + ".json"));
  for (const auto& [what, text] :
       {std::pair{"record", record.body}, {"details", details.body}, {"bundle", exported.body}}) {
    for (const auto& secret : {std::string("Wallace winters"), std::string("Percy holds")}) {
      EXPECT_EQ(text.find(secret), std::string::npos) << what << " holds " << secret;
    }
  }
}

TEST_F(PrivateNotes, AnInviteGameStaysHiddenFromAStranger) {
  auto bruce = register_user(port(), "bruce");
  auto comyn = register_user(port(), "comyn");
  const auto created =
      bruce.post("/api/games", {{"scenario", "braveheart"}, {"visibility", "invite"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  // The creator holds his seat while the game is open: his notepad is there already.
  ASSERT_EQ(put_notes(bruce, id, {{"text", "ask Edward for a rematch"}}).status, 200);
  const auto hidden = comyn.get(notes_path(id));
  EXPECT_EQ(hidden.status, 404);
  EXPECT_EQ(hidden.body, comyn.get(notes_path(999'999)).body);
  EXPECT_EQ(put_notes(comyn, id, {{"text", "x"}}).status, 404);
  EXPECT_EQ(notes_of(bruce, id), "ask Edward for a rematch");
}

}  // namespace
}  // namespace blockfog::server::testing
