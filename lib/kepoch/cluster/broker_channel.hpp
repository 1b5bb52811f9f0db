#pragma once
// One connection to one broker, ready for requests, as Kafka's NetworkClient prepares one:
//   1. TCP, then TLS for SSL and SASL_SSL;
//   2. ApiVersions at the highest version kepoch speaks; a broker that does not speak it
//      answers UNSUPPORTED_VERSION (in a v0 body) with its own range, and the request is
//      sent again at the highest version both speak (ApiVersionsResponse.parse's fallback);
//   3. for SASL_*: SaslHandshake v1 naming the mechanism, then SaslAuthenticate (v0-2)
//      rounds driven by the mechanism's step function (sasl_client.hpp).
// The whole set-up is bounded by settings.timeout, and so is each request after it. Then
// send() encodes a request at the highest version both sides speak, checks the answer's
// correlation id and decodes it. Any failure is one line naming the broker
// (ClusterError; AuthenticationError when the broker refused our credentials), and a
// channel that failed mid-request refuses further use: its stream is out of step.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "kepoch/cluster/byte_stream.hpp"
#include "kepoch/cluster/connection_settings.hpp"
#include "kepoch/cluster/deadline.hpp"
#include "kepoch/cluster/protocol/api_key.hpp"
#include "kepoch/cluster/protocol/schema.hpp"
#include "kepoch/cluster/protocol/value.hpp"
#include "kepoch/cluster/tls_stream.hpp"

namespace kepoch::cluster {

class BrokerChannel {
 public:
  // Connects and prepares the channel. `tls` is the settings' TLS context, loaded once by
  // ClusterConnector (when null and TLS is needed, it is loaded here). Throws ClusterError,
  // AuthenticationError, or InputError for unusable TLS files.
  BrokerChannel(const ConnectionSettings& settings, const BrokerAddress& address,
                std::shared_ptr<const TlsContext> tls = nullptr);
  // The same, by an earlier deadline than settings.timeout from now. `cancel` (one is made
  // when null) ends any wait of this channel, now or later, at once (cancel()).
  BrokerChannel(const ConnectionSettings& settings, const BrokerAddress& address,
                std::shared_ptr<const TlsContext> tls, Deadline deadline,
                std::shared_ptr<CancelSignal> cancel = nullptr);
  // A channel over an open stream (tests: a stream to a fake broker), then steps 2 and 3.
  BrokerChannel(const ConnectionSettings& settings, const BrokerAddress& address,
                std::unique_ptr<ByteStream> stream);
  BrokerChannel(BrokerChannel&&) noexcept;
  BrokerChannel& operator=(BrokerChannel&&) noexcept;
  ~BrokerChannel();

  // The request at version_for(api); returns the response body.
  protocol::Struct send(protocol::ApiKey api, const protocol::Struct& body);
  // At a chosen version (ClusterError when the broker does not speak it).
  protocol::Struct send(protocol::ApiKey api, std::int16_t version, const protocol::Struct& body);
  // At version_for(api), answered by `deadline` instead of settings.timeout from now.
  protocol::Struct send(protocol::ApiKey api, const protocol::Struct& body, Deadline deadline);

  // The signal that ends this channel's waits (null for a channel over a given stream);
  // firing it, from any thread, leaves the channel broken.
  const std::shared_ptr<CancelSignal>& cancel_signal() const { return cancel_; }

  // The highest version kepoch and the broker both speak; ClusterError naming the API and
  // both ranges when there is none.
  std::int16_t version_for(protocol::ApiKey api) const;
  std::optional<std::int16_t> usable_version(protocol::ApiKey api) const;
  // The broker's ApiVersions answer: api key -> its version range.
  const std::map<std::int16_t, protocol::Versions>& broker_versions() const {
    return broker_versions_;
  }
  // The ApiVersions version the broker answered (after any fallback).
  std::int16_t api_versions_version() const { return api_versions_version_; }
  // The feature levels the broker's ApiVersions answer finalized (finalized_features_of).
  const std::optional<std::map<std::string, std::int16_t>>& finalized_features() const {
    return finalized_features_;
  }

  const BrokerAddress& address() const { return address_; }
  const std::string& peer() const { return peer_; }

 private:
  void prepare(const ConnectionSettings& settings, Deadline deadline);
  void negotiate_versions(Deadline deadline, bool tls);
  void authenticate(const ConnectionSettings& settings, Deadline deadline);
  std::vector<std::uint8_t> round_trip(protocol::ApiKey api, std::int16_t version,
                                       const protocol::Struct& body, Deadline deadline);
  protocol::Struct exchange(protocol::ApiKey api, std::int16_t version,
                            const protocol::Struct& body, Deadline deadline);
  [[noreturn]] void fail(const std::string& what) const;

  BrokerAddress address_;
  std::string client_id_;
  std::chrono::milliseconds timeout_;
  std::string peer_;
  std::shared_ptr<CancelSignal> cancel_;
  std::unique_ptr<ByteStream> stream_;
  std::map<std::int16_t, protocol::Versions> broker_versions_;
  std::int16_t api_versions_version_ = 0;
  std::optional<std::map<std::string, std::int16_t>> finalized_features_;
  std::int32_t next_correlation_id_ = 0;
  bool broken_ = false;
};

}  // namespace kepoch::cluster
