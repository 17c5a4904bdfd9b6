#include "protocol/messages.h"

#include <algorithm>

#include "protocol/fields.h"

namespace blockfog::protocol {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxSeq = std::int64_t{1} << 53;  // exact in every JSON reader
constexpr std::size_t kMaxServerFrameBytes = 64 * 1024 * 1024;

json nullable(const std::optional<std::string>& s) { return s ? json(*s) : json(); }

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

// The envelope shared by every message: an object with "v":1 and a string "type".
struct Envelope {
  json object;
  std::string type;
};

std::variant<Envelope, DecodeError> read_envelope(std::string_view text, std::size_t max_bytes) {
  auto parsed = parse_object(text, max_bytes);
  if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
  Envelope envelope{std::move(std::get<json>(parsed)), ""};
  const json& j = envelope.object;
  const auto v = j.find("v");
  if (v == j.end()) return DecodeError{ErrorCode::MissingField, "missing field 'v'"};
  if (!v->is_number_integer() || v->get<std::int64_t>() != kVersion) {
    return DecodeError{ErrorCode::WrongVersion, "this server speaks protocol version 1"};
  }
  const auto type = j.find("type");
  if (type == j.end()) return DecodeError{ErrorCode::MissingField, "missing field 'type'"};
  if (!type->is_string()) return DecodeError{ErrorCode::BadField, "field 'type' must be a string"};
  envelope.type = type->get<std::string>();
  return envelope;
}

Decoded<ClientMessage> decode_client_fields(const Envelope& e) {
  FieldReader fields(e.object);
  fields.value("v", Need::Required);
  fields.value("type", Need::Required);
  if (e.type == "action") {
    ActionMessage m;
    m.seq = fields.integer("seq", Need::Required, 0, kMaxSeq).value_or(0);
    if (const json* action = fields.value("action", Need::Required)) {
      if (!action->is_object())
        fields.fail(ErrorCode::BadField, "field 'action' must be an object");
      m.action = *action;
    }
    m.ref = fields.string("ref", Need::Optional, kMaxRefBytes);
    return finish<ClientMessage>(fields, std::move(m));
  }
  if (e.type == "chat") {
    ChatMessage m;
    m.text = fields.string("text", Need::Required, kMaxChatBytes).value_or("");
    if (fields.ok() && is_blank(m.text)) fields.fail(ErrorCode::BadField, "chat text is empty");
    return finish<ClientMessage>(fields, std::move(m));
  }
  if (e.type == "sync") {
    SyncMessage m;
    m.chat_since = fields.integer("chat_since", Need::Optional, 0, kMaxSeq).value_or(0);
    return finish<ClientMessage>(fields, m);
  }
  if (e.type == "ping") return finish<ClientMessage>(fields, PingMessage{});
  return DecodeError{ErrorCode::UnknownType, "unknown message type '" + e.type + "'"};
}

std::optional<std::string> nullable_string(FieldReader& fields, std::string_view name) {
  return fields.string(name, Need::Optional, 1024);
}

Decoded<ServerMessage> decode_server_fields(const Envelope& e) {
  FieldReader fields(e.object);
  fields.value("v", Need::Required);
  fields.value("type", Need::Required);
  if (e.type == "welcome") {
    WelcomeMessage m;
    m.game_id = fields.integer("game_id", Need::Required, 1, kMaxSeq).value_or(0);
    m.role = fields.string("role", Need::Required, 16).value_or("");
    m.status = fields.string("status", Need::Required, 16).value_or("");
    m.seed_sha256 = fields.string("seed_sha256", Need::Required, 64).value_or("");
    if (const json* players = fields.value("players", Need::Required)) {
      if (!players->is_object()) {
        fields.fail(ErrorCode::BadField, "field 'players' must be an object");
      } else {
        FieldReader p(*players);
        m.scotland = nullable_string(p, "scotland");
        m.england = nullable_string(p, "england");
        p.reject_unread();
        if (p.error()) fields.fail(p.error()->code, p.error()->message);
      }
    }
    if (const json* computer = fields.value("computer", Need::Optional)) {
      if (!computer->is_object()) {
        fields.fail(ErrorCode::BadField, "field 'computer' must be an object");
      } else {
        m.computer = *computer;
      }
    }
    if (const json* dice = fields.value("dice", Need::Optional)) {
      if (!dice->is_object() && !dice->is_null()) {
        fields.fail(ErrorCode::BadField, "field 'dice' must be an object or null");
      } else {
        m.dice = *dice;
      }
    }
    return finish<ServerMessage>(fields, std::move(m));
  }
  if (e.type == "view") {
    ViewMessage m;
    m.seq = fields.integer("seq", Need::Required, 0, kMaxSeq).value_or(0);
    if (const json* view = fields.value("view", Need::Required)) m.view = *view;
    m.log_from = fields.integer("log_from", Need::Required, 0, kMaxSeq).value_or(0);
    m.ref = fields.string("ref", Need::Optional, kMaxRefBytes);
    if (const json* stale = fields.value("stale", Need::Optional)) {
      if (!stale->is_boolean()) fields.fail(ErrorCode::BadField, "field 'stale' must be a boolean");
      m.stale = stale->is_boolean() && stale->get<bool>();
    }
    return finish<ServerMessage>(fields, std::move(m));
  }
  if (e.type == "view_patch") {
    ViewPatchMessage m;
    m.seq = fields.integer("seq", Need::Required, 1, kMaxSeq).value_or(0);
    if (const json* patch = fields.value("view_patch", Need::Required)) {
      if (!patch->is_object()) {
        fields.fail(ErrorCode::BadField, "field 'view_patch' must be an object");
      }
      m.patch = *patch;
    }
    m.log_from = fields.integer("log_from", Need::Required, 0, kMaxSeq).value_or(0);
    m.ref = fields.string("ref", Need::Optional, kMaxRefBytes);
    return finish<ServerMessage>(fields, std::move(m));
  }
  if (e.type == "error") {
    ErrorMessage m;
    const auto code = fields.string("code", Need::Required, 64).value_or("");
    m.message = fields.string("message", Need::Required, 4096).value_or("");
    m.ref = fields.string("ref", Need::Optional, kMaxRefBytes);
    if (fields.ok()) {
      if (const auto c = error_code_from_name(code)) {
        m.code = *c;
      } else {
        fields.fail(ErrorCode::BadField, "unknown error code '" + code + "'");
      }
    }
    return finish<ServerMessage>(fields, std::move(m));
  }
  if (e.type == "chat") {
    ChatLine m;
    m.id = fields.integer("id", Need::Required, 1, kMaxSeq).value_or(0);
    m.role = fields.string("role", Need::Required, 16).value_or("");
    fields.value("user", Need::Required);
    m.user = nullable_string(fields, "user");
    m.text = fields.string("text", Need::Required, 4096).value_or("");
    m.at = fields.integer("at", Need::Required, 0).value_or(0);
    return finish<ServerMessage>(fields, std::move(m));
  }
  if (e.type == "restarting") return finish<ServerMessage>(fields, RestartingMessage{});
  if (e.type == "pong") return finish<ServerMessage>(fields, PongMessage{});
  if (e.type == "game_ended") {
    GameEndedMessage m;
    m.status = fields.string("status", Need::Required, 16).value_or("");
    if (const json* result = fields.value("result", Need::Required)) m.result = *result;
    return finish<ServerMessage>(fields, std::move(m));
  }
  if (e.type == "clocks") {
    ClocksMessage m;
    if (const json* clocks = fields.value("clocks", Need::Required)) m.clocks = *clocks;
    return finish<ServerMessage>(fields, std::move(m));
  }
  if (e.type == "rematch") {
    RematchMessage m;
    m.state = fields.string("state", Need::Required, 16).value_or("");
    m.offered_by = fields.string("offered_by", Need::Required, 64).value_or("");
    if (const json* id = fields.value("game_id", Need::Required); id && id->is_number_integer()) {
      m.game_id = id->get<std::int64_t>();
    }
    return finish<ServerMessage>(fields, std::move(m));
  }
  if (e.type == "moved") {
    MovedMessage m;
    m.ws = fields.string("ws", Need::Optional, 256);
    m.retry_ms = fields.integer("retry_ms", Need::Optional, 0, 3'600'000);
    if (m.ws.has_value() == m.retry_ms.has_value()) {
      fields.fail(ErrorCode::BadField, "moved carries either ws or retry_ms");
    }
    return finish<ServerMessage>(fields, std::move(m));
  }
  return DecodeError{ErrorCode::UnknownType, "unknown message type '" + e.type + "'"};
}

json envelope(std::string_view type) { return {{"v", kVersion}, {"type", type}}; }

}  // namespace

Decoded<ClientMessage> decode_client(std::string_view text) {
  auto e = read_envelope(text, kMaxClientFrameBytes);
  if (auto* error = std::get_if<DecodeError>(&e)) return *error;
  return decode_client_fields(std::get<Envelope>(e));
}

Decoded<ServerMessage> decode_server(std::string_view text) {
  auto e = read_envelope(text, kMaxServerFrameBytes);
  if (auto* error = std::get_if<DecodeError>(&e)) return *error;
  return decode_server_fields(std::get<Envelope>(e));
}

std::string_view type_name(const ClientMessage& message) {
  struct Visitor {
    std::string_view operator()(const ActionMessage&) const { return "action"; }
    std::string_view operator()(const ChatMessage&) const { return "chat"; }
    std::string_view operator()(const SyncMessage&) const { return "sync"; }
    std::string_view operator()(const PingMessage&) const { return "ping"; }
  };
  return std::visit(Visitor{}, message);
}

std::string_view type_name(const ServerMessage& message) {
  struct Visitor {
    std::string_view operator()(const WelcomeMessage&) const { return "welcome"; }
    std::string_view operator()(const ViewMessage&) const { return "view"; }
    std::string_view operator()(const ViewPatchMessage&) const { return "view_patch"; }
    std::string_view operator()(const ErrorMessage&) const { return "error"; }
    std::string_view operator()(const ChatLine&) const { return "chat"; }
    std::string_view operator()(const RestartingMessage&) const { return "restarting"; }
    std::string_view operator()(const PongMessage&) const { return "pong"; }
    std::string_view operator()(const GameEndedMessage&) const { return "game_ended"; }
    std::string_view operator()(const ClocksMessage&) const { return "clocks"; }
    std::string_view operator()(const RematchMessage&) const { return "rematch"; }
    std::string_view operator()(const MovedMessage&) const { return "moved"; }
  };
  return std::visit(Visitor{}, message);
}

json to_json(const ClientMessage& message) {
  json j = envelope(type_name(message));
  if (const auto* m = std::get_if<ActionMessage>(&message)) {
    j["seq"] = m->seq;
    j["action"] = m->action;
    if (m->ref) j["ref"] = *m->ref;
  } else if (const auto* c = std::get_if<ChatMessage>(&message)) {
    j["text"] = c->text;
  } else if (const auto* s = std::get_if<SyncMessage>(&message)) {
    j["chat_since"] = s->chat_since;
  }
  return j;
}

json to_json(const ServerMessage& message) {
  json j = envelope(type_name(message));
  if (const auto* w = std::get_if<WelcomeMessage>(&message)) {
    j["game_id"] = w->game_id;
    j["role"] = w->role;
    j["status"] = w->status;
    j["seed_sha256"] = w->seed_sha256;
    j["players"] = {{"scotland", nullable(w->scotland)}, {"england", nullable(w->england)}};
    j["computer"] = w->computer;
    j["dice"] = w->dice;
  } else if (const auto* v = std::get_if<ViewMessage>(&message)) {
    j["seq"] = v->seq;
    j["log_from"] = v->log_from;
    if (v->ref) j["ref"] = *v->ref;
    if (v->stale) j["stale"] = true;
    j["view"] = v->view;
  } else if (const auto* p = std::get_if<ViewPatchMessage>(&message)) {
    j["seq"] = p->seq;
    j["log_from"] = p->log_from;
    if (p->ref) j["ref"] = *p->ref;
    j["view_patch"] = p->patch;
  } else if (const auto* e = std::get_if<ErrorMessage>(&message)) {
    j["code"] = error_code_name(e->code);
    j["message"] = e->message;
    if (e->ref) j["ref"] = *e->ref;
  } else if (const auto* c = std::get_if<ChatLine>(&message)) {
    j["id"] = c->id;
    j["role"] = c->role;
    j["user"] = nullable(c->user);
    j["text"] = c->text;
    j["at"] = c->at;
  } else if (const auto* g = std::get_if<GameEndedMessage>(&message)) {
    j["status"] = g->status;
    j["result"] = g->result;
  } else if (const auto* k = std::get_if<ClocksMessage>(&message)) {
    j["clocks"] = k->clocks;
  } else if (const auto* r = std::get_if<RematchMessage>(&message)) {
    j["state"] = r->state;
    j["offered_by"] = r->offered_by;
    j["game_id"] = r->game_id ? json(*r->game_id) : json();
  } else if (const auto* m = std::get_if<MovedMessage>(&message)) {
    if (m->ws) j["ws"] = *m->ws;
    if (m->retry_ms) j["retry_ms"] = *m->retry_ms;
  }
  return j;
}

json merge_log(const json& held, std::int64_t log_from, const json& lines) {
  json log = json::array();
  if (held.is_array()) {
    std::int64_t position = 0;
    for (const auto& line : held) {
      // A line without its index (a plain text line) is numbered by its place in the held log,
      // which is the whole log up to the last view.
      const auto i = line.is_object() ? line.find("i") : line.end();
      const std::int64_t index = i != line.end() && i->is_number_integer() ? i->get<std::int64_t>()
                                 : line.is_string()                        ? position
                                                                           : log_from;
      if (index < log_from) log.push_back(line);
      ++position;
    }
  }
  if (lines.is_array()) log.insert(log.end(), lines.begin(), lines.end());
  return log;
}

bool apply_view_patch(json& view, const ViewPatchMessage& message) {
  const json& patch = message.patch;
  if (!view.is_object() || !patch.is_object() || !view.contains("log") || !view["log"].is_array()) {
    return false;
  }
  const json* elements = nullptr;
  const json* set = nullptr;
  const json* unset = nullptr;
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it.key() == "elements" && it->is_object()) {
      elements = &*it;
    } else if (it.key() == "set" && it->is_object()) {
      set = &*it;
    } else if (it.key() == "unset" && it->is_array()) {
      unset = &*it;
    } else {
      return false;
    }
  }
  if (message.log_from < 0 || static_cast<std::size_t>(message.log_from) > view["log"].size()) {
    return false;
  }
  json next = view;
  if (elements) {
    for (const auto& [name, pairs] : elements->items()) {
      auto it = next.find(name);
      if (it == next.end() || !it->is_array() || !pairs.is_array()) return false;
      for (const auto& pair : pairs) {
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() ||
            pair[0].get<std::int64_t>() < 0 || pair[0].get<std::size_t>() >= it->size()) {
          return false;
        }
        (*it)[pair[0].get<std::size_t>()] = pair[1];
      }
    }
  }
  if (set) {
    for (const auto& [name, value] : set->items()) {
      if (name != "log") next[name] = value;
    }
  }
  if (unset) {
    for (const auto& name : *unset) {
      if (!name.is_string() || !next.contains(name.get<std::string>())) return false;
      next.erase(name.get<std::string>());
    }
  }
  const json* lines = nullptr;
  if (set && set->contains("log")) {
    lines = &(*set)["log"];
    if (!lines->is_array()) return false;
  }
  next["log"] = merge_log(view["log"], message.log_from, lines ? *lines : json::array());
  view = std::move(next);
  return true;
}

// Invalid UTF-8 (which decoding never lets in) is replaced rather than thrown on.
std::string encode(const ClientMessage& message) {
  return to_json(message).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string encode(const ServerMessage& message) {
  return to_json(message).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace blockfog::protocol
