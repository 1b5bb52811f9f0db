#pragma once
// A point in time by which a network step must be done. Every blocking step (name
// lookup, connect, TLS handshake, read, write) is handed one, so nothing waits forever.

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

}  // namespace kepoch::cluster
