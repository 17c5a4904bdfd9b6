// Turn notices end to end (docs/server.md, "Turn notices"): the real server delivering to a
// real SMTP server (aiosmtpd) and to a webhook receiver on loopback; games played through
// the server with random legal actions, each by a client of the acting seat opened for it, so
// that the other seat, when it becomes awaited, has nobody connected.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include "rules/core/hex.h"
#include "rules/hots/log.h"
#include "server/notices/notice_lines.h"
#include "storage/sqlite.h"
#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/notice_endpoints.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

struct StoredNotice {
  std::int64_t id = 0;
  std::string role;
  std::int64_t seq = 0;
  json content;
  std::map<std::string, std::string> states;     // channel -> state
  std::map<std::string, std::int64_t> next_try;  // channel -> next_attempt_at
  std::int64_t created_at = 0;
};

std::vector<StoredNotice> stored_notices(const std::filesystem::path& db, std::int64_t game_id) {
  storage::SqliteDatabase database(db, storage::OpenMode::ReadBesideWriter);
  auto q = database.prepare(
      "SELECT id, role, seq, content, created_at FROM notices WHERE game_id = ?1"
      " ORDER BY id");
  q.bind(1, game_id);
  std::vector<StoredNotice> out;
  while (q.step()) {
    out.push_back({q.column_int64(0),
                   q.column_text(1),
                   q.column_int64(2),
                   json::parse(q.column_text(3)),
                   {},
                   {},
                   q.column_int64(4)});
  }
  for (auto& n : out) {
    auto d = database.prepare(
        "SELECT channel, state, next_attempt_at FROM notice_deliveries WHERE notice_id = ?1");
    d.bind(1, n.id);
    while (d.step()) {
      n.states[d.column_text(0)] = d.column_text(1);
      n.next_try[d.column_text(0)] = d.column_int64(2);
    }
  }
  return out;
}

// Waits until no delivery of the game is pending.
bool settled(const std::filesystem::path& db, std::int64_t game_id, std::chrono::seconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    bool pending = false;
    for (const auto& n : stored_notices(db, game_id)) {
      for (const auto& [channel, state] : n.states) pending = pending || state == "pending";
    }
    if (!pending) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

struct Seat {
  HttpClient http;
  std::string role;
};

// A started game between `scot` (its creator) and `eng`. `after_join`, when given, runs once
// both seats are taken and before the dice are rolled: a webhook turned on there hears of the
// start and not of the dice (a notice's channels are those on when it is written).
std::int64_t start_game(Seat& scot, Seat& eng, const std::function<void()>& after_join = nullptr) {
  const auto created = scot.http.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"visibility", "public"}});
  EXPECT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  const auto joined = eng.http.post("/api/games/" + std::to_string(id) + "/join", json::object());
  EXPECT_EQ(joined.status, 200) << joined.body;
  if (after_join) after_join();
  // The creator reveals first, so the joiner's reveal starts the game (he is at it).
  roll_dice(scot.http, eng.http, id);
  return id;
}

std::string capitalised(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

// What happened since a seat's last decision, as the engine's whole log tells it (its entries
// with their audiences, from the state's to_json): the lines after that decision that the seat
// and an observer may both read (RULES 13.1.3), the first kNoticeLines of them, and how many
// more. Found from the engine's audiences, not from the views the server compares.
struct Happened {
  std::vector<std::string> lines;
  std::size_t more = 0;
};

std::vector<hots::LogEntry> engine_log(const core::Game& game) {
  const auto bytes = core::from_hex(game.to_json().at("log").get<std::string>());
  std::vector<hots::LogEntry> log;
  for (std::size_t i = 0; bytes && i + 8 <= bytes->size(); i += 8) {
    const auto* e = bytes->data() + i;
    log.push_back({static_cast<hots::LogKind>(e[0]), static_cast<hots::Audience>(e[1]), e[2], e[3],
                   e[4], e[5], static_cast<std::int16_t>(e[6] | (e[7] << 8))});
  }
  return log;
}

Happened expected_happened(const std::vector<hots::LogEntry>& log, std::size_t from,
                           core::Role role) {
  Happened h;
  for (std::size_t i = from; i < log.size(); ++i) {
    if (!hots::can_read(log[i].audience, role) ||
        !hots::can_read(log[i].audience, core::Role::Observer)) {
      continue;
    }
    if (h.lines.size() < kNoticeLines) {
      h.lines.push_back(hots::log_text(log[i]));
    } else {
      ++h.more;
    }
  }
  return h;
}

// What the test expects a notice to say, from the recipient's view and `happened` alone.
json expected_content(std::int64_t game_id, const json& view, const Happened& happened) {
  return {{"game", game_id},
          {"role", view["role"]},
          {"year", view["year"]},
          {"turn", view["turn"]},
          {"phase_text", view["phase_text"]},
          {"happened", happened.lines},
          {"more", happened.more}};
}

std::string expected_text(const json& c) {
  std::string text = "Your turn in Blockfog game " + std::to_string(c["game"].get<int>()) + " (" +
                     capitalised(c["role"]) + "): " + std::to_string(c["year"].get<int>());
  if (c["turn"].get<int>() > 0) text += ", turn " + std::to_string(c["turn"].get<int>());
  const std::string phase = c["phase_text"];
  if (!phase.empty()) text += ", " + phase;
  return text + ".";
}

// The whole message: the line above, what happened, the link.
std::string expected_message(const json& c, const std::string& link) {
  std::string text = expected_text(c) + "\n";
  if (!c["happened"].empty()) {
    text += "Since your last move:\n";
    for (const auto& line : c["happened"]) text += "  " + line.get<std::string>() + "\n";
    if (c["more"].get<int>() > 0) {
      text += "  and " + std::to_string(c["more"].get<int>()) + " more (in the game's log).\n";
    }
  }
  return text + link;
}

HttpClient registered(int port, const std::string& name) { return register_user(port, name); }

// Checks every notice stored for the game against its recipient's own view, replayed from the
// log: it says what that view says (game, side, year, turn, public phase) and what happened
// since the recipient's last decision (expected_happened), each line one of his view's, in its
// order, after that decision. The contents of those sent by webhook go to `sent` (by role, in
// order); `lines_told` counts the lines told.
void check_notices(const std::filesystem::path& db, std::int64_t game_id,
                   std::map<std::string, std::vector<json>>* sent, std::size_t* lines_told) {
  const auto notices = stored_notices(db, game_id);
  ASSERT_GE(notices.size(), 5u) << "too few seats became awaited with nobody connected";
  const auto record = stored_record(db, game_id);
  // Per action (0: the start): the engine log's length and each seat's view log_size after it,
  // and who made it.
  std::vector<std::size_t> engine_size;
  std::map<core::Role, std::vector<std::size_t>> view_size;
  std::vector<std::string> actor{""};
  {
    RecordReplay walk(record);
    for (std::int64_t seq = 0;; ++seq) {
      if (seq > 0 && static_cast<std::size_t>(seq) > record["actions"].size()) break;
      const auto* game = walk.at(seq);
      ASSERT_TRUE(game);
      engine_size.push_back(engine_log(*game).size());
      for (core::Role role : {core::Role::Scotland, core::Role::England}) {
        view_size[role].push_back(game->view(role, SIZE_MAX)["log_size"].get<std::size_t>());
      }
      if (seq > 0) actor.push_back(record["actions"][seq - 1]["role"]);
    }
  }
  RecordReplay replay(record);
  std::int64_t at_seq = -1;
  std::vector<core::Role> was;     // who was awaited before action at_seq
  for (const auto& n : notices) {  // written in the order of the actions that caused them
    const auto role = core::role_from_name(n.role);
    ASSERT_TRUE(role);
    if (n.seq != at_seq) {
      const auto* before = replay.at(n.seq - 1);
      ASSERT_TRUE(before);
      was = before->active_roles();
      at_seq = n.seq;
    }
    // The seat was not awaited before the action (one notice per awaited turn); seq 0 is the
    // start's notice.
    if (n.seq > 0) {
      EXPECT_EQ(std::find(was.begin(), was.end(), *role), was.end());
    }
    const auto* game = replay.at(n.seq);
    ASSERT_TRUE(game);
    const auto view = game->view(*role);
    // The recipient's last decision: his last action before this one (none: the start).
    std::size_t decided = 0;
    for (auto seq = static_cast<std::size_t>(n.seq); seq > 0; --seq) {
      if (actor[seq] == n.role) {
        decided = seq;
        break;
      }
    }
    // Before his first decision, what happened is told from the log's start.
    const auto happened =
        expected_happened(engine_log(*game), decided > 0 ? engine_size[decided] : 0, *role);
    EXPECT_EQ(n.content, expected_content(game_id, view, happened))
        << "notice after action " << n.seq;
    // Each line is one of the recipient's own view, in its order, after his last decision.
    const auto own = game->view(*role, decided > 0 ? view_size[*role][decided] : 0)["log"];
    std::size_t next = 0;
    for (const auto& line : n.content["happened"]) {
      while (next < own.size() && own[next]["text"] != line) ++next;
      EXPECT_LT(next, own.size()) << "notice after action " << n.seq << " tells " << line
                                  << ", which its recipient's view has not there";
      ++next;
    }
    *lines_told += n.content["happened"].size();
    const auto& awaiting = view["awaiting"];
    EXPECT_NE(std::find(awaiting.begin(), awaiting.end(), n.role), awaiting.end());
    if (n.states.at("webhook") == "sent") {
      auto fields = n.content;
      fields["notice_id"] = n.id;
      (*sent)[n.role].push_back(fields);
    }
  }
}

class Notices : public ::testing::Test {
 protected:
  TempDir dir;
};

// Every notice of a long game is checked against its recipient's own view, replayed from the
// log: it says what that view says (game, side, year, turn, public phase) and what happened
// since the recipient's last decision (the public lines of his view after it), and nothing else.
TEST_F(Notices, WebhookNoticesOfALongGameTellOnlyTheRecipientsView) {
  WebhookReceiver receiver;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  std::size_t checked = 0;
  const std::uint64_t seed = 1;  // 600 actions: dozens of notices per seat
  const auto prefix = "w" + std::to_string(seed);
  Seat scot{registered(server.port(), prefix + "_scot"), "scotland"};
  Seat eng{registered(server.port(), prefix + "_eng"), "england"};
  for (Seat* seat : {&scot, &eng}) {
    const auto url = "http://127.0.0.1:" + std::to_string(receiver.port()) + "/hook/" + prefix +
                     "/" + seat->role;
    const auto r = seat->http.post("/api/notices", {{"webhook_url", url}, {"webhook", true}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["notices"]["webhook_url"], url);
    EXPECT_EQ(r.json()["notices"]["channels"]["webhook"], true);
  }
  const auto game_id = start_game(scot, eng);
  std::mt19937_64 rng(seed);
  play_forward_away(server.port(), game_id, scot.http.session_cookie(), eng.http.session_cookie(),
                    rng, 600);
  ASSERT_TRUE(settled(server.db_path(), game_id, 60s));

  std::map<std::string, std::vector<json>> sent;  // role -> contents, in order
  std::size_t lines_told = 0;
  std::size_t dice_told = 0;
  check_notices(server.db_path(), game_id, &sent, &lines_told);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  // What reached the receiver is exactly what was marked sent, in order, and its text is
  // made of the view's fields alone.
  for (const std::string role : {"scotland", "england"}) {
    std::vector<json> got;
    for (const auto& request : receiver.received()) {
      if (request.target != "/hook/" + prefix + "/" + role) continue;
      EXPECT_EQ(request.content_type, "application/json");
      const auto payload = json::parse(request.body);
      std::set<std::string> keys;
      for (const auto& [k, v] : payload.items()) keys.insert(k);
      EXPECT_EQ(keys, (std::set<std::string>{"username", "content", "text", "blockfog"}));
      auto fields = payload["blockfog"];
      const std::string link = fields["url"];
      EXPECT_EQ(link, "http://127.0.0.1:" + std::to_string(server.port()) + "/#/game/" +
                          std::to_string(game_id));
      fields.erase("url");
      // The id a receiver drops a repeat by: in a header too, for receivers that do not parse.
      EXPECT_EQ(request.notice_id, std::to_string(fields["notice_id"].get<std::int64_t>()));
      // The receiver listens on a port of its own, which the Host header names.
      EXPECT_EQ(request.host, "127.0.0.1:" + std::to_string(receiver.port()));
      if (fields.value("dice", false)) {
        // Scotland, away when England joined, was told to roll: a notice that names the game
        // and nothing of any view, which the start's own replaces in the outbox (dice.h).
        EXPECT_EQ(role, "scotland");
        EXPECT_EQ(payload["content"], "Blockfog game " + std::to_string(game_id) +
                                          " (Scotland) is ready to start: open it to roll the "
                                          "dice.\n" +
                                          link);
        ++dice_told;
        continue;
      }
      EXPECT_EQ(payload["content"], expected_message(fields, link));
      EXPECT_EQ(payload["text"], payload["content"]);
      got.push_back(fields);
    }
    EXPECT_EQ(got, sent[role]) << role;
    checked += got.size();
  }
  EXPECT_GE(checked, 10u);
  // Notices told what the opponent did, not only whose turn it is.
  EXPECT_GE(lines_told, checked);
  EXPECT_EQ(metric_value(server.port(), "blockfog_notices_failed_total"), 0);
  EXPECT_EQ(metric_value(server.port(), "blockfog_notices_sent_total"),
            static_cast<std::int64_t>(checked + dice_told));
}

// Where each seat's log stood at its last decision is found again from the log after a
// restart: the notices written after it tell what happened since that decision, not since the
// game began or the server started.
TEST_F(Notices, AfterARestartNoticesStillBeginAtTheRecipientsLastDecision) {
  WebhookReceiver receiver;
  auto server = std::make_unique<ServerProcess>(
      dir.path(), std::vector<std::string>{"--webhook-allow", "http,private"});
  Seat scot{registered(server->port(), "r_scot"), "scotland"};
  Seat eng{registered(server->port(), "r_eng"), "england"};
  for (Seat* seat : {&scot, &eng}) {
    const auto url =
        "http://127.0.0.1:" + std::to_string(receiver.port()) + "/hook/r/" + seat->role;
    ASSERT_EQ(seat->http.post("/api/notices", {{"webhook_url", url}, {"webhook", true}}).status,
              200);
  }
  const auto game_id = start_game(scot, eng);
  std::mt19937_64 rng(5);
  ASSERT_GT(play_forward_away(server->port(), game_id, scot.http.session_cookie(),
                              eng.http.session_cookie(), rng, 120),
            100);
  const auto before = stored_notices(server->db_path(), game_id).size();
  ASSERT_TRUE(settled(server->db_path(), game_id, 60s));
  server->kill9();

  server = std::make_unique<ServerProcess>(
      dir.path(), std::vector<std::string>{"--webhook-allow", "http,private"});
  for (Seat* seat : {&scot, &eng}) {
    const auto cookie = seat->http.session_cookie();
    seat->http = HttpClient(server->port());
    seat->http.set_session_cookie(cookie);
  }
  play_forward_away(server->port(), game_id, scot.http.session_cookie(), eng.http.session_cookie(),
                    rng, 240);
  ASSERT_TRUE(settled(server->db_path(), game_id, 60s));
  ASSERT_GT(stored_notices(server->db_path(), game_id).size(), before + 5)
      << "too few notices after the restart";
  std::map<std::string, std::vector<json>> sent;
  std::size_t lines_told = 0;
  check_notices(server->db_path(), game_id, &sent, &lines_told);
}

// Turns `seat`'s webhook to `url` on: passed to start_game as `after_join`, for a test whose
// subject is a turn's notice and not the dice's.
std::function<void()> webhook_on(Seat& seat, const std::string& url) {
  return [&seat, url] {
    const auto r = seat.http.post("/api/notices", {{"webhook_url", url}, {"webhook", true}});
    EXPECT_EQ(r.status, 200) << r.body;
  };
}

// Plays until `account`'s seat got a notice written; returns the game.
std::int64_t play_until_noticed(ServerProcess& server, Seat& scot, Seat& eng,
                                const std::string& role, std::uint64_t seed,
                                const std::function<void()>& after_join = nullptr) {
  const auto game_id = start_game(scot, eng, after_join);
  const auto noticed = [&] {
    for (const auto& n : stored_notices(server.db_path(), game_id)) {
      if (n.role == role) return true;
    }
    return false;
  };
  // The start may have told `role` already; then nobody acts before it is delivered.
  if (noticed()) return game_id;
  std::mt19937_64 rng(seed);
  play_forward_away(server.port(), game_id, scot.http.session_cookie(), eng.http.session_cookie(),
                    rng, 3000, noticed);
  return game_id;
}

std::string confirm_link(const std::string& message) {
  const std::regex link("(http://[^ \\n]*/api/notices/confirm/[0-9a-f]+)");
  std::smatch m;
  return std::regex_search(message, m, link) ? std::string(m[1]) : "";
}

std::string path_of(const std::string& url) {
  const auto start = url.find('/', url.find("//") + 2);
  return url.substr(start);
}

void email_round_trip(const TempDir& dir, bool starttls) {
  const auto cert = make_certificate(dir.path());
  SmtpServer smtp(dir.path(), starttls ? &cert : nullptr);
  ServerProcess server(dir.path(),
                       {"--smtp-host", "localhost", "--smtp-port", std::to_string(smtp.port()),
                        "--smtp-starttls", starttls ? "on" : "off", "--smtp-from",
                        "turns@blockfog.example", "--notice-ca-file", cert.cert.string()});
  Seat scot{registered(server.port(), "mail_scot"), "scotland"};
  Seat eng{registered(server.port(), "mail_eng"), "england"};

  // Turning e-mail on before an address is confirmed is refused, and nothing is stored.
  const auto early = scot.http.post("/api/notices", {{"email", true}});
  EXPECT_EQ(early.status, 409);
  EXPECT_EQ(early.error_code(), "email_not_confirmed");

  const auto given = scot.http.post("/api/notices/email", {{"email", "scot@example.org"}});
  ASSERT_EQ(given.status, 202) << given.body;
  EXPECT_EQ(given.json()["notices"]["email"], nullptr);
  EXPECT_EQ(given.json()["notices"]["email_pending"], "scot@example.org");
  // Private to its owner: the other player's settings do not show it.
  EXPECT_EQ(eng.http.get("/api/notices").json()["notices"]["email_pending"], nullptr);
  ASSERT_TRUE(smtp.wait_for(1, 20s));
  const auto confirmation = smtp.messages().at(0);
  EXPECT_EQ(mail_header(confirmation, "To"), "<scot@example.org>");
  const auto link = confirm_link(confirmation);
  ASSERT_FALSE(link.empty()) << confirmation;

  HttpClient browser(server.port());
  EXPECT_EQ(browser.get(path_of(link)).status, 200);
  EXPECT_EQ(browser.get(path_of(link)).status, 404) << "the token is single-use";
  const auto settings = scot.http.get("/api/notices").json()["notices"];
  EXPECT_EQ(settings["email"], "scot@example.org");
  EXPECT_EQ(settings["channels"]["email"], true);

  // Scotland, away, becomes awaited: one e-mail.
  const auto game_id = play_until_noticed(server, scot, eng, "scotland", 7);
  ASSERT_TRUE(settled(server.db_path(), game_id, 30s));
  // The e-mail of the turn's notice (one telling Scotland to roll the dice may come before it,
  // if the start that replaces it in the outbox, server/play/dice.h, came after its sending).
  const auto stored = stored_notices(server.db_path(), game_id);
  ASSERT_FALSE(stored.empty());
  const auto turn_text = expected_text(stored.front().content);
  const auto turn_mail = [&]() -> std::optional<std::string> {
    const auto messages = smtp.messages();
    for (std::size_t i = 1; i < messages.size(); ++i) {
      if (messages[i].find(turn_text) != std::string::npos) return messages[i];
    }
    return std::nullopt;
  };
  for (std::size_t n = 2; n <= 4 && !turn_mail(); ++n) smtp.wait_for(n, 20s);
  ASSERT_TRUE(turn_mail()) << turn_text;
  const auto notice = *turn_mail();
  const auto mails_so_far = smtp.messages().size();
  EXPECT_EQ(mail_header(notice, "Subject"),
            "Your turn in Blockfog game " + std::to_string(game_id));
  EXPECT_NE(notice.find("/#/game/" + std::to_string(game_id)), std::string::npos) << notice;
  EXPECT_EQ(mail_header(notice, "List-Unsubscribe-Post"), "List-Unsubscribe=One-Click");
  const auto unsubscribe = mail_header(notice, "List-Unsubscribe");
  ASSERT_GT(unsubscribe.size(), 2u);
  const auto unsubscribe_url = unsubscribe.substr(1, unsubscribe.size() - 2);
  EXPECT_NE(notice.find(unsubscribe_url), std::string::npos) << "the link is in the body too";
  EXPECT_FALSE(mail_header(notice, "Message-ID").empty());

  // With what happened since Scotland's last decision, a line each.
  ASSERT_FALSE(stored.front().content["happened"].empty());
  for (const auto& line : stored.front().content["happened"]) {
    EXPECT_NE(notice.find("  " + line.get<std::string>() + "\n"), std::string::npos)
        << line << " is not in\n"
        << notice;
  }

  // With a digest of one hour, the next notice waits for the hour to pass: no second e-mail.
  ASSERT_EQ(scot.http.post("/api/notices", {{"digest_hours", 1}}).status, 200);
  Seat eng2{registered(server.port(), "mail_eng2"), "england"};
  const auto second = play_until_noticed(server, scot, eng2, "scotland", 8);
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  bool postponed = false;
  while (!postponed && std::chrono::steady_clock::now() < deadline) {
    const auto n = stored_notices(server.db_path(), second);
    postponed = !n.empty() && n[0].states.at("email") == "pending" &&
                n[0].next_try.at("email") > n[0].created_at + 30 * 60 * 1000;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(postponed) << "the digest keeps the e-mail back";
  EXPECT_EQ(smtp.messages().size(), mails_so_far);

  // A mail scanner fetching the link changes nothing: the page asks for a click, a POST.
  HttpClient scanner(server.port());
  const auto page = scanner.get(path_of(unsubscribe_url));
  EXPECT_EQ(page.status, 200) << page.body;
  EXPECT_NE(page.body.find("<form method=\"post\" action=\"" + path_of(unsubscribe_url) + "\">"),
            std::string::npos)
      << page.body;
  EXPECT_EQ(scot.http.get("/api/notices").json()["notices"]["channels"]["email"], true);

  // One click, as a mail program sends it (RFC 8058): a form POST from nowhere.
  HttpClient mail_program(server.port());
  const auto off =
      mail_program.request("POST", path_of(unsubscribe_url), "List-Unsubscribe=One-Click",
                           {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(off.status, 200) << off.body;
  EXPECT_EQ(scot.http.get("/api/notices").json()["notices"]["channels"]["email"], false);
  EXPECT_EQ(stored_notices(server.db_path(), second)[0].states.at("email"), "dropped");
}

TEST_F(Notices, EmailOverStartTlsConfirmedThenUnsubscribedWithOneClick) {
  email_round_trip(dir, true);
}

TEST_F(Notices, EmailWithoutStartTlsToALocalRelay) { email_round_trip(dir, false); }

// Two accounts, each with a webhook of its own at `receiver` (/hook/PREFIX/ROLE).
std::pair<Seat, Seat> seats_with_hooks(int port, const WebhookReceiver& receiver,
                                       const std::string& prefix) {
  std::pair<Seat, Seat> seats{Seat{registered(port, prefix + "_scot"), "scotland"},
                              Seat{registered(port, prefix + "_eng"), "england"}};
  for (Seat* seat : {&seats.first, &seats.second}) {
    const auto url = "http://127.0.0.1:" + std::to_string(receiver.port()) + "/hook/" + prefix +
                     "/" + seat->role;
    EXPECT_EQ(seat->http.post("/api/notices", {{"webhook_url", url}, {"webhook", true}}).status,
              200);
  }
  return seats;
}

// The turn notices that reached `receiver`: a notice telling a player to roll the dice may come
// first, when the sender sent it before the start replaced it in the outbox (server/play/dice.h).
std::vector<WebhookRequest> turn_hooks(const WebhookReceiver& receiver) {
  std::vector<WebhookRequest> turns;
  for (const auto& hook : receiver.received()) {
    if (!json::parse(hook.body)["blockfog"].value("dice", false)) turns.push_back(hook);
  }
  return turns;
}

// A game's start makes its first awaited seats awaited: the creator, away, is told; the player
// whose join started it is at the game and is not.
TEST_F(Notices, TheStartTellsTheAwaitedCreatorWhoIsAway) {
  WebhookReceiver receiver;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  auto [scot, eng] = seats_with_hooks(server.port(), receiver, "away");
  const auto game_id = start_game(scot, eng);
  const auto game = scot.http.get("/api/games/" + std::to_string(game_id)).json()["game"];
  ASSERT_NE(std::find(game["awaiting"].begin(), game["awaiting"].end(), "scotland"),
            game["awaiting"].end())
      << "Scotland, the creator, is awaited at the start: " << game.dump();
  ASSERT_TRUE(receiver.wait_for(1, 20s));
  ASSERT_TRUE(settled(server.db_path(), game_id, 20s));
  const auto notices = stored_notices(server.db_path(), game_id);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].role, "scotland");
  EXPECT_EQ(notices[0].seq, 0);
  EXPECT_EQ(notices[0].states.at("webhook"), "sent");
  const auto hooks = turn_hooks(receiver);
  ASSERT_EQ(hooks.size(), 1u);
  EXPECT_EQ(hooks[0].target, "/hook/away/scotland");
  EXPECT_NE(hooks[0].body.find("Your turn in Blockfog game " + std::to_string(game_id)),
            std::string::npos)
      << hooks[0].body;
}

// The creator has the game open (a WebSocket in its room) when the opponent's dice start it:
// whether he is away is decided in the start's own transaction, so no notice to him is ever
// written, and no sender pass can reach him. The notice outbox of the game is empty the moment
// the join is answered; the away creator of a game started later is still told (the sender
// ran, and sent nothing for the watched game).
TEST_F(Notices, TheStartNeverTellsACreatorWatchingTheGame) {
  WebhookReceiver receiver;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  auto [scot, eng] = seats_with_hooks(server.port(), receiver, "watching");
  const auto created = scot.http.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}, {"visibility", "public"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t watched = created.json()["game"]["id"];
  auto watching = connect(server.port(), watched, scot.http.session_cookie());
  ASSERT_TRUE(watching);
  ASSERT_TRUE(watching->barrier());  // the room holds the creator
  ASSERT_EQ(eng.http.post("/api/games/" + std::to_string(watched) + "/join", json::object()).status,
            200);
  roll_dice(scot.http, eng.http, watched);
  EXPECT_TRUE(stored_notices(server.db_path(), watched).empty())
      << "a notice was written for a creator watching the game";
  ASSERT_TRUE(watching->read_first_view());
  EXPECT_EQ(watching->role, "scotland");
  EXPECT_FALSE(watching->view["legal_actions"].empty()) << "the creator is awaited";

  // The same creator, away from his next game, is told of its start; only of that one.
  watching.reset();
  const auto away = start_game(scot, eng);
  ASSERT_TRUE(receiver.wait_for(1, 20s));
  ASSERT_TRUE(settled(server.db_path(), away, 20s));
  const auto hooks = turn_hooks(receiver);
  ASSERT_EQ(hooks.size(), 1u);
  EXPECT_EQ(hooks[0].target, "/hook/watching/scotland");
  EXPECT_NE(hooks[0].body.find("Your turn in Blockfog game " + std::to_string(away)),
            std::string::npos)
      << hooks[0].body;
  EXPECT_TRUE(stored_notices(server.db_path(), watched).empty());
}

// kill -9 after the notice was committed and before it could be delivered: the restarted
// server delivers it, once.
TEST_F(Notices, KilledBeforeDeliveryIsDeliveredAfterRestartOnce) {
  const int hook_port = free_port();  // nothing listens there yet: every attempt fails
  auto server = std::make_unique<ServerProcess>(
      dir.path(),
      std::vector<std::string>{"--webhook-allow", "http,private", "--notice-retry", "1"});
  Seat scot{registered(server->port(), "k_scot"), "scotland"};
  Seat eng{registered(server->port(), "k_eng"), "england"};
  const auto url = "http://127.0.0.1:" + std::to_string(hook_port) + "/hook";
  ASSERT_EQ(scot.http.post("/api/notices", {{"webhook_url", url}, {"webhook", true}}).status, 200);
  const auto game_id = start_game(scot, eng);  // Scotland, away, is told of the start
  const auto written = stored_notices(server->db_path(), game_id);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0].states.at("webhook"), "pending");
  server->kill9();

  WebhookReceiver receiver(hook_port);
  server = std::make_unique<ServerProcess>(
      dir.path(),
      std::vector<std::string>{"--webhook-allow", "http,private", "--notice-retry", "1"});
  ASSERT_TRUE(receiver.wait_for(1, 30s));
  ASSERT_TRUE(settled(server->db_path(), game_id, 30s));
  EXPECT_EQ(stored_notices(server->db_path(), game_id)[0].states.at("webhook"), "sent");
  // A later notice going out proves the sender went past the first one again without
  // sending it twice.
  Seat scot2{registered(server->port(), "k_scot2"), "scotland"};
  Seat eng2{registered(server->port(), "k_eng2"), "england"};
  ASSERT_EQ(scot2.http.post("/api/notices", {{"webhook_url", url + "2"}, {"webhook", true}}).status,
            200);
  play_until_noticed(*server, scot2, eng2, "scotland", 12);
  ASSERT_TRUE(receiver.wait_for(2, 30s));
  std::this_thread::sleep_for(1500ms);  // a few more passes of the sender
  const auto got = receiver.received();
  EXPECT_EQ(
      std::count_if(got.begin(), got.end(), [](const auto& r) { return r.target == "/hook"; }), 1);
}

// Delivery is at least once: a server killed while a slow receiver holds its answer sends the
// notice again after the restart, with the same id in the header and in the payload, by which
// the receiver can drop the repeat.
TEST_F(Notices, AKillDuringASlowWebhookDeliveryRepeatsItWithTheSameId) {
  WebhookReceiver receiver;
  receiver.hold();
  const std::vector<std::string> flags{
      "--webhook-allow", "http,private", "--notice-retry", "1", "--notice-timeout", "3"};
  auto server = std::make_unique<ServerProcess>(dir.path(), flags);
  Seat scot{registered(server->port(), "slow_scot"), "scotland"};
  Seat eng{registered(server->port(), "slow_eng"), "england"};
  const auto url = "http://127.0.0.1:" + std::to_string(receiver.port()) + "/slow";
  const auto game_id = start_game(scot, eng, webhook_on(scot, url));  // Scotland, away, is told
  ASSERT_TRUE(receiver.wait_for(1, 30s));  // delivered; the receiver has not answered
  server->kill9();
  receiver.release();
  server = std::make_unique<ServerProcess>(dir.path(), flags);
  ASSERT_TRUE(receiver.wait_for(2, 30s));
  ASSERT_TRUE(settled(server->db_path(), game_id, 30s));
  const auto notices = stored_notices(server->db_path(), game_id);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].states.at("webhook"), "sent");
  const auto got = receiver.received();
  ASSERT_EQ(got.size(), 2u);
  for (const auto& request : got) {
    EXPECT_EQ(request.target, "/slow");
    EXPECT_EQ(request.notice_id, std::to_string(notices[0].id));
    EXPECT_EQ(json::parse(request.body)["blockfog"]["notice_id"], notices[0].id);
  }
}

// A webhook that keeps failing is retried, then given up on after --notice-give-up: the
// failure is counted in /metrics and logged.
TEST_F(Notices, GivesUpAfterTheBoundAndShowsTheFailure) {
  WebhookReceiver receiver;
  receiver.answer(503);
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private", "--notice-retry", "1",
                                    "--notice-give-up", "3"});
  Seat scot{registered(server.port(), "g_scot"), "scotland"};
  Seat eng{registered(server.port(), "g_eng"), "england"};
  const auto url = "http://127.0.0.1:" + std::to_string(receiver.port()) + "/down";
  const auto game_id = play_until_noticed(server, scot, eng, "scotland", 13, webhook_on(scot, url));
  ASSERT_TRUE(settled(server.db_path(), game_id, 30s));
  EXPECT_EQ(stored_notices(server.db_path(), game_id)[0].states.at("webhook"), "failed");
  EXPECT_GE(receiver.received().size(), 2u) << "retried before giving up";
  EXPECT_GE(metric_value(server.port(), "blockfog_notices_retried_total"), 1);
  EXPECT_EQ(metric_value(server.port(), "blockfog_notices_failed_total"), 1);
  EXPECT_EQ(metric_value(server.port(), "blockfog_notices_sent_total"), 0);
  EXPECT_NE(server.log().find("gave up on notice"), std::string::npos);
}

// A webhook host that takes the connection and never answers: with --notice-timeout 1 each
// attempt ends after a second as a failure, is retried, and the notice is given up on after
// --notice-give-up, the timeout in the log and the failure in /metrics.
TEST_F(Notices, AWebhookThatNeverAnswersTimesOutAndIsRetried) {
  SilentListener silent;
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private", "--notice-retry", "1",
                                    "--notice-give-up", "4", "--notice-timeout", "1"});
  Seat scot{registered(server.port(), "t_scot"), "scotland"};
  Seat eng{registered(server.port(), "t_eng"), "england"};
  const auto url = "http://127.0.0.1:" + std::to_string(silent.port()) + "/silent";
  const auto game_id = start_game(scot, eng, webhook_on(scot, url));  // Scotland, away, is told
  ASSERT_EQ(stored_notices(server.db_path(), game_id).size(), 1u);
  ASSERT_TRUE(settled(server.db_path(), game_id, 30s));
  EXPECT_EQ(stored_notices(server.db_path(), game_id)[0].states.at("webhook"), "failed");
  EXPECT_GE(metric_value(server.port(), "blockfog_notices_retried_total"), 1);
  EXPECT_EQ(metric_value(server.port(), "blockfog_notices_failed_total"), 1);
  EXPECT_EQ(metric_value(server.port(), "blockfog_notices_sent_total"), 0);
  EXPECT_NE(server.log().find("webhook read: timed out"), std::string::npos) << server.log();
}

// A redirect is not followed: the webhook fails at once, and nothing goes to the other host.
TEST_F(Notices, WebhookRedirectsAreNotFollowed) {
  WebhookReceiver elsewhere;
  WebhookReceiver receiver;
  receiver.answer(302, "http://127.0.0.1:" + std::to_string(elsewhere.port()) + "/stolen");
  ServerProcess server(dir.path(), {"--webhook-allow", "http,private"});
  Seat scot{registered(server.port(), "r_scot"), "scotland"};
  Seat eng{registered(server.port(), "r_eng"), "england"};
  const auto url = "http://127.0.0.1:" + std::to_string(receiver.port()) + "/hook";
  const auto game_id = play_until_noticed(server, scot, eng, "scotland", 14, webhook_on(scot, url));
  ASSERT_TRUE(settled(server.db_path(), game_id, 30s));
  EXPECT_EQ(stored_notices(server.db_path(), game_id)[0].states.at("webhook"), "failed");
  EXPECT_EQ(receiver.received().size(), 1u);
  EXPECT_TRUE(elsewhere.received().empty());
}

// An https webhook with a certificate the server trusts is delivered over TLS.
TEST_F(Notices, HttpsWebhookIsDelivered) {
  const auto cert = make_certificate(dir.path());
  WebhookReceiver receiver(0, &cert);
  ServerProcess server(dir.path(),
                       {"--webhook-allow", "private", "--notice-ca-file", cert.cert.string()});
  Seat scot{registered(server.port(), "s_scot"), "scotland"};
  Seat eng{registered(server.port(), "s_eng"), "england"};
  const auto url = "https://localhost:" + std::to_string(receiver.port()) + "/hook";
  const auto game_id = play_until_noticed(server, scot, eng, "scotland", 15, webhook_on(scot, url));
  ASSERT_TRUE(settled(server.db_path(), game_id, 30s));
  EXPECT_EQ(stored_notices(server.db_path(), game_id)[0].states.at("webhook"), "sent");
  EXPECT_EQ(receiver.received().size(), 1u);
}

// Bad input gets a typed error and changes nothing.
TEST_F(Notices, SettingsRefuseBadInputAndStoreNothing) {
  ServerProcess server(dir.path());
  Seat scot{registered(server.port(), "b_scot"), "scotland"};
  const auto refused = [&](const std::string& target, const json& body, int status,
                           const std::string& code) {
    const auto before = db_fingerprint(server.db_path());
    const auto r = scot.http.post(target, body);
    EXPECT_EQ(r.status, status) << body.dump() << " " << r.body;
    EXPECT_EQ(r.error_code(), code) << body.dump();
    EXPECT_FALSE(r.json()["error"]["message"].get<std::string>().empty());
    EXPECT_EQ(db_fingerprint(server.db_path()), before) << body.dump();
  };
  for (const auto* email : {"no-at-sign", "a@b@c", "@example.org", "name@", "na me@example.org",
                            "x@exa_mple.org", "x@example..org", "x\r\nBcc: y@example.org"}) {
    refused("/api/notices/email", {{"email", email}}, 400, "bad_email");
  }
  refused("/api/notices/email", {{"email", "good@example.org"}}, 409, "email_unavailable");
  for (const auto* url :
       {"ftp://example.org/hook", "http://example.org/hook", "https://",
        "https://user:pw@example.org/", "https://127.0.0.1/hook", "https://localhost/hook",
        "https://[::1]/hook", "https://192.168.1.10/hook", "https://10.0.0.1/hook",
        "https://169.254.169.254/latest", "https://example.org:99999/", "https://example.org/a b",
        "example.org/hook"}) {
    refused("/api/notices", {{"webhook_url", url}, {"webhook", true}}, 400, "bad_webhook_url");
  }
  refused("/api/notices", {{"webhook", true}}, 400, "bad_webhook_url");
  refused("/api/notices", {{"digest_hours", 169}}, 400, "bad_field");
  refused("/api/notices", {{"digest_hours", -1}}, 400, "bad_field");
  refused("/api/notices", {{"colour", "red"}}, 400, "bad_field");
  refused("/api/notices", {{"email", true}}, 409, "email_not_confirmed");

  const auto ok = scot.http.post(
      "/api/notices",
      {{"webhook_url", "https://hooks.example.org/services/T/B/x"}, {"digest_hours", 6}});
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.json()["notices"]["digest_hours"], 6);
  EXPECT_EQ(ok.json()["notices"]["email_available"], false);
  HttpClient stranger(server.port());
  EXPECT_EQ(stranger.get("/api/notices").status, 401);
  EXPECT_EQ(stranger.get("/api/notices/confirm/abcdef").status, 404);
  EXPECT_EQ(stranger.get("/api/notices/unsubscribe/abcdef").status, 404);
}

}  // namespace
}  // namespace blockfog::server::testing
