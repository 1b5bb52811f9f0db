#pragma once
// Producing records with librdkafka (the client kepoch already links), as `kepoch replay`
// needs it: the idempotent producer (enable.idempotence=true, which librdkafka pairs with
// acks=all and at most 5 requests in flight per connection, so one partition's records are
// written once and in the order produced, retries included), configured from the same
// ConnectionSettings the other cluster commands use (bootstrap, security protocol, SASL, TLS).
// Each record's delivery report says whether the broker acknowledged it.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kepoch/cluster/connection_settings.hpp"

namespace kepoch::cluster {

struct ProducedRecord {
  std::string topic;
  std::int32_t partition = 0;
  std::optional<std::span<const std::uint8_t>> key;
  std::optional<std::span<const std::uint8_t>> value;
  std::vector<std::pair<std::string, std::optional<std::span<const std::uint8_t>>>> headers;
  std::int64_t timestamp = -1;  // -1: the producer's clock
};

// A delivery report: the caller's tag, and the broker's offset or the error.
struct Delivery {
  std::uint64_t tag = 0;
  bool delivered = false;
  std::int64_t offset = -1;
  std::string error;  // librdkafka's error string when not delivered
};

// librdkafka's message.max.bytes: its default, and the most it takes.
inline constexpr std::uint64_t kDefaultMessageMaxBytes = 1000000;
inline constexpr std::uint64_t kMostMessageMaxBytes = 1000000000;

// The message.max.bytes a producer needs to send a record of `record_bytes` (key, value,
// header names and values): librdkafka refuses a record whose size with its framing is over it
// (MSG_SIZE_TOO_LARGE, before it is queued), so a record the topic took in a batch of more
// than a megabyte could not be produced back with the default. Never below the default, at
// most kMostMessageMaxBytes.
std::uint64_t message_max_bytes_for(std::uint64_t record_bytes);

// The librdkafka properties of `settings` (bootstrap.servers, security.protocol,
// sasl.mechanism/username/password, ssl.*), secrets included: for the client's config only,
// never to be shown; message.max.bytes from `largest_record_bytes` when it needs more than
// the default.
std::vector<std::pair<std::string, std::string>> producer_properties(
    const ConnectionSettings& settings, std::uint64_t largest_record_bytes = 0);

class RecordProducer {
 public:
  // ClusterError when librdkafka refuses the configuration. `largest_record_bytes`: the
  // largest record (key, value, headers) it will be asked to produce.
  RecordProducer(const ConnectionSettings& settings, std::uint64_t largest_record_bytes,
                 std::function<void(const Delivery&)> on_delivery);
  ~RecordProducer();
  RecordProducer(const RecordProducer&) = delete;
  RecordProducer& operator=(const RecordProducer&) = delete;

  // Queues one record (waiting for room in the queue, serving delivery reports meanwhile).
  // ClusterError when it cannot be queued (an unknown topic or partition, a fatal producer
  // error).
  void produce(const ProducedRecord& record, std::uint64_t tag);
  // Serves delivery reports for up to `ms`.
  void poll(int ms);
  // Waits up to `ms` for every queued record's report; false when some are still out.
  bool flush(int ms);
  // Records queued or in flight.
  int outstanding() const;
  // A fatal error of the idempotent producer (e.g. out of order sequence), or "".
  std::string fatal_error() const;

  struct State;  // librdkafka's handle and the report callback (its delivery callback's opaque)

 private:
  std::unique_ptr<State> state_;
};

}  // namespace kepoch::cluster
