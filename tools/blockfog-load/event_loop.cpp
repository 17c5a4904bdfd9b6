#include "tools/blockfog-load/event_loop.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "tools/blockfog-load/errno_error.h"

namespace blockfog::load {

EventLoop::EventLoop() {
  epoll_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_ < 0) throw_errno("epoll_create1");
  wake_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_ < 0) {
    close(epoll_);
    throw_errno("eventfd");
  }
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = 0;
  if (epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event) != 0) {
    close(wake_);
    close(epoll_);
    throw_errno("epoll_ctl");
  }
}

EventLoop::~EventLoop() {
  close(wake_);
  close(epoll_);
}

EventLoop::Watch EventLoop::watch(int fd, Watcher& watcher) {
  const Watch id = next_watch_++;
  epoll_event event{};
  event.events = EPOLLIN;  // level-triggered (see the header); errors and hang-ups always
  event.data.u64 = id;
  if (epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) != 0) throw_errno("epoll_ctl add");
  watched_.emplace(id, Watched{fd, &watcher});
  return id;
}

void EventLoop::want_writable(Watch watch, bool writable) {
  auto it = watched_.find(watch);
  if (it == watched_.end() || it->second.writable == writable) return;
  it->second.writable = writable;
  epoll_event event{};
  event.events = EPOLLIN | (writable ? EPOLLOUT : 0u);
  event.data.u64 = watch;
  if (epoll_ctl(epoll_, EPOLL_CTL_MOD, it->second.fd, &event) != 0) throw_errno("epoll_ctl mod");
}

void EventLoop::unwatch(Watch watch) {
  auto it = watched_.find(watch);
  if (it == watched_.end()) return;
  epoll_ctl(epoll_, EPOLL_CTL_DEL, it->second.fd, nullptr);
  watched_.erase(it);
}

EventLoop::Timer EventLoop::after(Clock::duration delay, Handler handler) {
  const Timer timer{Clock::now() + delay, next_timer_++};
  timers_.emplace(timer, std::move(handler));
  return timer;
}

void EventLoop::cancel(const Timer& timer) { timers_.erase(timer); }

void EventLoop::post(Handler handler) {
  {
    std::lock_guard lock(posted_mutex_);
    posted_.push_back(std::move(handler));
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = write(wake_, &one, sizeof one);
}

void EventLoop::run_posted() {
  std::uint64_t count = 0;
  [[maybe_unused]] const auto read_back = read(wake_, &count, sizeof count);
  std::vector<Handler> handlers;
  {
    std::lock_guard lock(posted_mutex_);
    handlers.swap(posted_);
  }
  for (auto& handler : handlers) {
    if (stopped_) return;
    handler();
  }
}

void EventLoop::run_due_timers() {
  const auto now = Clock::now();
  while (!stopped_ && !timers_.empty() && timers_.begin()->first.first <= now) {
    auto handler = std::move(timers_.begin()->second);
    timers_.erase(timers_.begin());
    handler();
  }
}

int EventLoop::wait_ms() const {
  if (timers_.empty()) return -1;
  const auto due = timers_.begin()->first.first - Clock::now();
  if (due <= Clock::duration::zero()) return 0;
  // Rounded up: a timer never runs before it is due.
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(due).count());
}

void EventLoop::run() {
  std::array<epoll_event, 256> events{};
  while (!stopped_) {
    const int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), wait_ms());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("epoll_wait");
    }
    for (int i = 0; i < n && !stopped_; ++i) {
      const Watch id = events[i].data.u64;
      if (id == 0) {
        run_posted();
        continue;
      }
      // Looked up again for each event: an earlier handler may have removed this watch.
      const auto it = watched_.find(id);
      if (it == watched_.end()) continue;
      it->second.watcher->on_ready(events[i].events);
    }
    run_due_timers();
  }
}

}  // namespace blockfog::load
