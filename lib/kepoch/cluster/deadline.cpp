#include "kepoch/cluster/deadline.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <climits>
#include <cstdint>

namespace kepoch::cluster {

int poll_timeout_ms(Deadline deadline) {
  const auto left = deadline - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
}

CancelSignal::CancelSignal() : fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

CancelSignal::~CancelSignal() {
  if (fd_ >= 0) close(fd_);
}

void CancelSignal::cancel() noexcept {
  if (cancelled_.exchange(true)) return;
  if (fd_ >= 0) {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto ignored = write(fd_, &one, sizeof(one));
  }
}

}  // namespace kepoch::cluster
