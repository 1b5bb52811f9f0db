#include "kepoch/cluster/deadline.hpp"

#include <climits>

namespace kepoch::cluster {

int poll_timeout_ms(Deadline deadline) {
  const auto left = deadline - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
}

}  // namespace kepoch::cluster
