#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "kepoch/cluster/record_producer.hpp"

using namespace kepoch::cluster;

namespace {

std::string property(std::uint64_t largest, const std::string& name) {
  ConnectionSettings s;
  const auto p = producer_properties(s, largest);
  const auto it =
      std::find_if(p.begin(), p.end(), [&](const auto& kv) { return kv.first == name; });
  return it == p.end() ? "(unset)" : it->second;
}

}  // namespace

// librdkafka refuses, before queueing it, a record whose size with its framing is over
// message.max.bytes (1,000,000 by default): replay's producer is made for the archive's
// largest record, so that a record a topic took under a larger max.message.bytes is produced
// back rather than refused half-way through the archive (and again at every resume).
TEST_CASE("replay's producer takes the archive's largest record", "[cluster][producer]") {
  CHECK(property(0, "message.max.bytes") == "(unset)");
  CHECK(property(900000, "message.max.bytes") == "(unset)");
  CHECK(property(2000000, "message.max.bytes") == std::to_string(2000000 + 64 * 1024));
  CHECK(message_max_bytes_for(0) == kDefaultMessageMaxBytes);
  CHECK(message_max_bytes_for(kDefaultMessageMaxBytes) == kDefaultMessageMaxBytes + 64 * 1024);
  CHECK(message_max_bytes_for(5000000000ULL) == kMostMessageMaxBytes);
  // The producer's other properties are as before.
  CHECK(property(2000000, "enable.idempotence") == "true");
  CHECK(property(2000000, "acks") == "all");
}
