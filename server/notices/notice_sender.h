#pragma once

// Delivers the turn notices of the outbox (storage/notice_store.h) on a thread of its own
// (docs/server.md, "Turn notices"). Every pass reads the deliveries that are due, claims each
// (counting the attempt and moving its next try a lease ahead, committed before anything is
// sent), sends it, and marks it sent. A delivery that fails is retried with a doubling delay
// (from --notice-retry up to an hour) until --notice-give-up after its notice was written; then
// it is marked failed, logged and counted (blockfog_notices_failed_total). What a restart
// finds pending or claimed is delivered after it, and only what the store marks sent is never
// sent again: a notice is sent twice only if the server dies between the channel accepting it
// and the store marking it sent, and then with the same Message-ID (e-mail) or notice id
// (webhook) so that the receiver can tell.
//
// E-mails of one account go out together: one e-mail carries every notice pending for it, and
// with a digest setting of N hours no e-mail goes out within N hours of the last one.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "server/config.h"

namespace blockfog::server {

class DbWorker;
class Metrics;

class NoticeSender {
 public:
  static constexpr std::chrono::milliseconds kPollEvery{500};
  static constexpr std::int64_t kMaxRetryMs = 3600 * 1000;

  // `public_url`: the base of the links in notices (--public-url, else the listener's URL).
  NoticeSender(const Config& config, std::string public_url, DbWorker& db, Metrics& metrics);
  ~NoticeSender();  // stop()s
  NoticeSender(const NoticeSender&) = delete;
  NoticeSender& operator=(const NoticeSender&) = delete;

  // Ends the thread once the delivery in progress (if any) is done.
  void stop();

 private:
  void run();
  // Delivers what is due now; returns how many deliveries were tried.
  std::size_t pass();

  const Config& config_;
  const std::string public_url_;
  DbWorker& db_;
  Metrics& metrics_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace blockfog::server
