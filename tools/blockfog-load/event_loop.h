#pragma once

// The load tool's one-thread event loop: sockets watched with level-triggered epoll, one-shot
// timers, and functions posted from other threads. Level-triggered, a socket that was read
// less than the buffer it was read into is known to be empty until epoll says otherwise: no
// read that comes back empty (Asio reads again after every message to find out, two such
// reads per action for the client).

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace blockfog::load {

class EventLoop {
 public:
  using Clock = std::chrono::steady_clock;
  using Handler = std::function<void()>;
  // What a watched socket tells when it is ready.
  class Watcher {
   public:
    virtual ~Watcher() = default;
    // With the epoll events (EPOLLIN, EPOLLOUT, EPOLLERR, EPOLLHUP) that are ready.
    virtual void on_ready(std::uint32_t events) = 0;
  };
  using Watch = std::uint64_t;
  using Timer = std::pair<Clock::time_point, std::uint64_t>;

  EventLoop();  // throws std::system_error if epoll or eventfd cannot be had
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Watches `fd` for reading (and for writing while `writable` is asked for). The fd stays the
  // caller's to close, after unwatch(); `watcher` must outlive the watch.
  Watch watch(int fd, Watcher& watcher);
  void want_writable(Watch watch, bool writable);
  // Safe from inside any handler: a watch removed while its events are being handed out gets
  // none of them.
  void unwatch(Watch watch);

  Timer after(Clock::duration delay, Handler handler);
  void cancel(const Timer& timer);  // nothing if it has run or was cancelled

  // From any thread: `handler` runs on the loop's thread.
  void post(Handler handler);

  // Runs until stop(); returns at once if stop() was called before.
  void run();
  void stop() { stopped_ = true; }

 private:
  struct Watched {
    int fd;
    Watcher* watcher;
    bool writable = false;
  };
  void run_posted();
  void run_due_timers();
  int wait_ms() const;

  int epoll_ = -1;
  int wake_ = -1;  // an eventfd: post() writes it, the loop reads it
  std::unordered_map<Watch, Watched> watched_;
  Watch next_watch_ = 1;  // 0 marks the eventfd
  std::map<Timer, Handler> timers_;
  std::uint64_t next_timer_ = 0;
  std::mutex posted_mutex_;
  std::vector<Handler> posted_;
  bool stopped_ = false;
};

}  // namespace blockfog::load
