#pragma once
// A point in time by which a network step must be done. Every blocking step (name
// lookup, connect, TLS handshake, read, write) is handed one, so nothing waits forever.
// A CancelSignal ends those waits sooner: when brokers are tried side by side
// (ClusterConnector::race), the ones still waiting give up once one has answered.

#include <atomic>
#include <chrono>

namespace kepoch::cluster {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

inline Deadline deadline_after(std::chrono::milliseconds timeout) {
  return Clock::now() + timeout;
}

// Milliseconds left for poll(): 0 once the deadline has passed, rounded up so a wait is
// never cut short by truncation.
int poll_timeout_ms(Deadline deadline);

// A one-shot signal, safe to fire from another thread: an eventfd that becomes readable,
// so a poll() on a socket can wait on it too.
class CancelSignal {
 public:
  CancelSignal();
  ~CancelSignal();
  CancelSignal(const CancelSignal&) = delete;
  CancelSignal& operator=(const CancelSignal&) = delete;

  void cancel() noexcept;
  bool cancelled() const noexcept { return cancelled_.load(); }
  // Readable once cancelled; -1 when no eventfd could be made (then only cancelled() says).
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::atomic<bool> cancelled_{false};
};

}  // namespace kepoch::cluster
