#pragma once

// A PostgreSQL cluster of one test's own, made with scripts/pg-scratch.sh (found through the
// environment variable BLOCKFOG_PG_SCRATCH, which CTest sets for the failover tests), so that a
// test may stop and start its database without stopping the one other tests share
// (docs/multi-node.md, section 5).

#include <memory>
#include <string>

namespace blockfog::server::testing {

class ScratchCluster {
 public:
  // Starts a new cluster; none (and the reason in `why`) when the script is not named or fails.
  static std::unique_ptr<ScratchCluster> start(std::string& why);
  ScratchCluster(const ScratchCluster&) = delete;
  ScratchCluster& operator=(const ScratchCluster&) = delete;
  ~ScratchCluster();  // destroys the cluster and its folder

  // The cluster's database `blockfog` (empty until a store migrates it).
  const std::string& uri() const { return uri_; }
  // A clean stop (open sessions are ended, nothing committed is lost), or with `immediate` the
  // end a crash would be (the next start recovers from the WAL). Throws if the script fails.
  void stop(bool immediate);
  // Starts it again on the same port, so that the URI holds; returns when it accepts sessions.
  void start_again();

 private:
  ScratchCluster(std::string script, std::string dir, std::string uri)
      : script_(std::move(script)), dir_(std::move(dir)), uri_(std::move(uri)) {}

  std::string script_;
  std::string dir_;
  std::string uri_;
};

}  // namespace blockfog::server::testing
