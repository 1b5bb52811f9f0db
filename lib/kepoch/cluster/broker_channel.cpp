#include "kepoch/cluster/broker_channel.hpp"

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/frame_io.hpp"
#include "kepoch/cluster/protocol/api_versions.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/schema_registry.hpp"
#include "kepoch/cluster/sasl_client.hpp"
#include "kepoch/cluster/tcp_stream.hpp"

#ifndef KEPOCH_VERSION
#define KEPOCH_VERSION "0"
#endif

namespace kepoch::cluster {
namespace {

using protocol::ApiKey;
using protocol::Struct;

using namespace protocol::errors;

// Kafka's name for the code (the codec's table of org.apache.kafka.common.protocol.Errors).
std::string error_label(std::int16_t code) {
  return protocol::error_code_name(code);
}

std::string range_text(const protocol::Versions& v) {
  return fmt::format("v{}..v{}", v.lowest, v.highest);
}

std::unique_ptr<ByteStream> connect(const ConnectionSettings& settings,
                                    const BrokerAddress& address,
                                    std::shared_ptr<const TlsContext> tls, Deadline deadline,
                                    std::shared_ptr<const CancelSignal> cancel) {
  auto tcp = std::make_unique<TcpStream>(address, deadline, settings.timeout, std::move(cancel));
  if (!settings.uses_tls()) return tcp;
  if (!tls) tls = std::make_shared<const TlsContext>(settings.tls);
  return std::make_unique<TlsStream>(std::move(tcp), *tls, address.host, deadline);
}

}  // namespace

BrokerChannel::BrokerChannel(const ConnectionSettings& settings, const BrokerAddress& address,
                             std::shared_ptr<const TlsContext> tls)
    : BrokerChannel(settings, address, std::move(tls), deadline_after(settings.timeout)) {}

BrokerChannel::BrokerChannel(const ConnectionSettings& settings, const BrokerAddress& address,
                             std::shared_ptr<const TlsContext> tls, Deadline deadline,
                             std::shared_ptr<CancelSignal> cancel)
    : address_(address),
      client_id_(settings.client_id),
      timeout_(settings.timeout),
      peer_(address.to_string()),
      cancel_(cancel ? std::move(cancel) : std::make_shared<CancelSignal>()) {
  stream_ = connect(settings, address, std::move(tls), deadline, cancel_);
  prepare(settings, deadline);
}

BrokerChannel::BrokerChannel(const ConnectionSettings& settings, const BrokerAddress& address,
                             std::unique_ptr<ByteStream> stream)
    : address_(address),
      client_id_(settings.client_id),
      timeout_(settings.timeout),
      peer_(address.to_string()),
      stream_(std::move(stream)) {
  prepare(settings, deadline_after(timeout_));
}

BrokerChannel::BrokerChannel(BrokerChannel&&) noexcept = default;
BrokerChannel& BrokerChannel::operator=(BrokerChannel&&) noexcept = default;
BrokerChannel::~BrokerChannel() = default;

void BrokerChannel::prepare(const ConnectionSettings& settings, Deadline deadline) {
  negotiate_versions(deadline, settings.uses_tls());
  if (settings.uses_sasl()) authenticate(settings, deadline);
}

void BrokerChannel::fail(const std::string& what) const {
  throw ClusterError(peer_, fmt::format("{}: {}", peer_, what));
}

std::vector<std::uint8_t> BrokerChannel::round_trip(ApiKey api, std::int16_t version,
                                                    const Struct& body, Deadline deadline) {
  if (broken_) fail("the connection was lost by an earlier request");
  const std::int32_t correlation_id = next_correlation_id_++;
  const auto request = protocol::encode_request(api, version, correlation_id, client_id_, body);
  broken_ = true;  // until the answer is in: a failure leaves the stream out of step
  write_frame(*stream_, request, deadline);
  auto frame = read_frame(*stream_, deadline);
  std::int32_t answered = 0;
  try {
    answered = protocol::peek_correlation_id(frame);
  } catch (const ProtocolError& e) {
    fail(fmt::format("{} v{} response: {}", protocol::api_key_name(api), version, e.what()));
  }
  if (answered != correlation_id)
    fail(fmt::format("the {} response has correlation id {}, the request had {}",
                     protocol::api_key_name(api), answered, correlation_id));
  broken_ = false;
  return frame;
}

Struct BrokerChannel::exchange(ApiKey api, std::int16_t version, const Struct& body,
                               Deadline deadline) {
  const auto frame = round_trip(api, version, body, deadline);
  try {
    return protocol::decode_response(api, version, frame).body;
  } catch (const ProtocolError& e) {
    fail(e.what());
  }
}

namespace {

// The transport's words for a peer that ended the connection (tcp_stream, tls_stream).
bool closed_before_answer(std::string_view what) {
  return what.find("closed the connection") != std::string_view::npos ||
         what.find("connection reset by the broker") != std::string_view::npos;
}

}  // namespace

void BrokerChannel::negotiate_versions(Deadline deadline, bool tls) {
  Struct request = protocol::make_request_body(ApiKey::kApiVersions);
  // Kafka refuses (INVALID_REQUEST) v3+ requests whose software name or version is empty.
  request.set_string("client_software_name", "kepoch");
  request.set_string("client_software_version", KEPOCH_VERSION);
  std::int16_t version = protocol::supported_versions(ApiKey::kApiVersions)->highest;
  for (int attempt = 0;; ++attempt) {
    std::vector<std::uint8_t> frame;
    try {
      frame = round_trip(ApiKey::kApiVersions, version, request, deadline);
    } catch (const ClusterError& e) {
      // A ZooKeeper server reads a Kafka request's first 4 bytes as a length too
      // (NIOServerCnxn.readLength), then the rest as its own ConnectRequest, which a Kafka
      // header is not ("Unreasonable length" in its log), and closes the connection without
      // a byte of answer: `-b` given the old --zookeeper flag's address looks like this.
      // A TLS listener given plain bytes ends the connection alike.
      if (attempt == 0 && closed_before_answer(e.what()))
        throw ClusterError(
            peer_, fmt::format("{} without answering ApiVersions, as a ZooKeeper server does to "
                               "a Kafka request: it may be a ZooKeeper port (-b takes a Kafka "
                               "listener, not the --zookeeper address){}",
                               e.what(),
                               tls ? "" : ", or a listener that expects TLS (security.protocol)"));
      throw;
    }
    std::optional<Struct> response;
    try {
      response = protocol::decode_response(ApiKey::kApiVersions, version, frame).body;
    } catch (const ProtocolError& e) {
      // A broker that does not speak `version` answers in a v0 body (see the header).
      if (version == 0) fail(e.what());
      try {
        response = protocol::decode_response(ApiKey::kApiVersions, 0, frame).body;
      } catch (const ProtocolError&) {
        fail(e.what());
      }
    }
    broker_versions_.clear();
    for (const auto& entry : response->get_array("api_keys")) {
      const auto& key = entry.as_struct();
      broker_versions_[key.get_int16("api_key")] = {key.get_int16("min_version"),
                                                    key.get_int16("max_version")};
    }
    const auto error = response->get_int16("error_code");
    if (error == 0) {
      api_versions_version_ = version;
      finalized_features_ = protocol::finalized_features_of(*response);
      return;
    }
    const auto fallback = usable_version(ApiKey::kApiVersions);
    if (error != kUnsupportedVersion || attempt > 0 || !fallback || *fallback >= version)
      fail(fmt::format("ApiVersions v{} refused: {}", version, error_label(error)));
    version = *fallback;
  }
}

void BrokerChannel::authenticate(const ConnectionSettings& settings, Deadline deadline) {
  auto client = make_sasl_client(settings);
  const auto mechanism = std::string(client->mechanism());
  // v0 would switch to raw SASL tokens; Kafka's clients always use v1 and SaslAuthenticate.
  const auto handshake_versions =
      broker_versions_.find(static_cast<std::int16_t>(ApiKey::kSaslHandshake));
  if (handshake_versions == broker_versions_.end() || handshake_versions->second.highest < 1)
    fail("the broker does not offer SaslHandshake v1 (no SASL on this listener?)");
  Struct handshake = protocol::make_request_body(ApiKey::kSaslHandshake);
  handshake.set_string("mechanism", mechanism);
  const auto offered = exchange(ApiKey::kSaslHandshake, 1, handshake, deadline);
  const auto handshake_error = offered.get_int16("error_code");
  if (handshake_error == kUnsupportedSaslMechanism)
    throw AuthenticationError(
        peer_,
        fmt::format("{}: the broker does not enable SASL mechanism {} (it enables: {})", peer_,
                    mechanism, fmt::join(offered.get_string_array("mechanisms"), ", ")));
  if (handshake_error == kIllegalSaslState)
    fail(fmt::format("the broker refused the SASL handshake ({}): is this a SASL listener?",
                     error_label(handshake_error)));
  if (handshake_error != 0)
    fail(fmt::format("SaslHandshake refused: {}", error_label(handshake_error)));

  const auto version = version_for(ApiKey::kSaslAuthenticate);
  try {
    auto message = client->step({});
    // PLAIN takes one round, SCRAM two; a server that keeps asking is not one we know.
    for (int round = 0; round < 4; ++round) {
      Struct request = protocol::make_request_body(ApiKey::kSaslAuthenticate);
      request.set_bytes("auth_bytes", std::move(message));
      const auto response = exchange(ApiKey::kSaslAuthenticate, version, request, deadline);
      if (const auto error = response.get_int16("error_code"); error != 0) {
        const auto said =
            response.get_nullable_string("error_message").value_or(error_label(error));
        if (error == kSaslAuthenticationFailed)
          throw AuthenticationError(peer_, fmt::format("{}: {}", peer_, said));
        fail(fmt::format("SaslAuthenticate refused ({}): {}", error_label(error), said));
      }
      if (client->complete()) return;
      message = client->step(response.get_bytes("auth_bytes"));
      if (client->complete()) return;
    }
  } catch (const SaslError& e) {
    if (e.kind() == SaslError::Kind::kRejected)
      throw AuthenticationError(peer_, fmt::format("{}: {}", peer_, e.what()));
    fail(e.what());
  }
  fail(fmt::format("{} did not finish within 4 rounds", mechanism));
}

std::optional<std::int16_t> BrokerChannel::usable_version(ApiKey api) const {
  const auto it = broker_versions_.find(static_cast<std::int16_t>(api));
  if (it == broker_versions_.end()) return std::nullopt;
  return protocol::pick_version(api, it->second.lowest, it->second.highest);
}

std::int16_t BrokerChannel::version_for(ApiKey api) const {
  if (const auto v = usable_version(api)) return *v;
  const auto ours = protocol::supported_versions(api);
  const auto it = broker_versions_.find(static_cast<std::int16_t>(api));
  fail(fmt::format("no {} version both sides speak (kepoch: {}, broker: {})",
                   protocol::api_key_name(api), ours ? range_text(*ours) : "none",
                   it == broker_versions_.end() ? "none" : range_text(it->second)));
}

Struct BrokerChannel::send(ApiKey api, const Struct& body) {
  return send(api, version_for(api), body);
}

Struct BrokerChannel::send(ApiKey api, std::int16_t version, const Struct& body) {
  const auto it = broker_versions_.find(static_cast<std::int16_t>(api));
  if (it == broker_versions_.end() || !it->second.contains(version))
    fail(fmt::format("the broker does not speak {} v{} (it speaks: {})",
                     protocol::api_key_name(api), version,
                     it == broker_versions_.end() ? "none" : range_text(it->second)));
  return exchange(api, version, body, deadline_after(timeout_));
}

Struct BrokerChannel::send(ApiKey api, const Struct& body, Deadline deadline) {
  return exchange(api, version_for(api), body, deadline);
}

}  // namespace kepoch::cluster
