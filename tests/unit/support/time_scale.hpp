#pragma once
// Wall-clock bounds in unit tests, stretched where the suite runs slowed down.
//
// The ASan lane of `./dev test` runs this suite at nice 19 beside two Kafka clusters, each
// step several times slower than in the foreground: a bound such as "within 2 s, not the
// 10 s timeout" holds there only stretched. KEPOCH_TEST_TIME_SCALE (set by the test preset
// from KEPOCH_TEST_TIMEOUT_SCALE, 3 for asan) multiplies a test's timeouts and bounds alike,
// so each test keeps its meaning (the ratio between the bound and what it rules out).
#include <chrono>
#include <cstdlib>

namespace test {

inline long time_scale() {
  const char* text = std::getenv("KEPOCH_TEST_TIME_SCALE");
  const long scale = text ? std::strtol(text, nullptr, 10) : 1;
  return scale >= 1 ? scale : 1;
}

// `d` stretched by the run's time scale.
template <class Rep, class Period>
std::chrono::duration<Rep, Period> scaled(std::chrono::duration<Rep, Period> d) {
  return d * time_scale();
}

}  // namespace test
