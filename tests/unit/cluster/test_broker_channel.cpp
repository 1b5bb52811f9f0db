#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <functional>
#include <mutex>

#include "kepoch/cluster/broker_channel.hpp"
#include "kepoch/cluster/cluster_connector.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "support/fake_broker.hpp"
#include "support/loopback_server.hpp"

using namespace kepoch::cluster;
using namespace std::chrono_literals;
using Catch::Matchers::Contains;
using protocol::ApiKey;
using protocol::Struct;

namespace {

using test::answer;
using test::api_versions_body;
using test::Frame;
using test::Responder;

// The fake broker, listing "ApiName vN #corr" per request in `seen` (checked by the test
// after the server thread is done: Catch2 assertions are single-threaded).
std::function<void(int)> fake_broker(Responder respond, std::vector<std::string>& seen) {
  return test::fake_broker(std::move(respond), [&seen](const protocol::DecodedRequest& decoded) {
    seen.push_back(fmt::format("{} v{} #{}",
                               protocol::api_key_name(static_cast<ApiKey>(decoded.header.api_key)),
                               decoded.header.api_version, decoded.header.correlation_id));
  });
}

const std::vector<test::ApiRange> kBrokerRanges = {{ApiKey::kApiVersions, 0, 4},
                                                   {ApiKey::kMetadata, 0, 9},
                                                   {ApiKey::kSaslHandshake, 0, 1},
                                                   {ApiKey::kSaslAuthenticate, 0, 1}};

// Answers ApiVersions with kBrokerRanges and Metadata with one broker; `more` first.
Responder broker_with(Responder more = nullptr) {
  return [more](const protocol::DecodedRequest& r) -> std::optional<Frame> {
    if (more)
      if (auto a = more(r)) return a;
    switch (static_cast<ApiKey>(r.header.api_key)) {
      case ApiKey::kApiVersions:
        return answer(r, api_versions_body(0, kBrokerRanges));
      case ApiKey::kMetadata: {
        Struct body = protocol::make_response_body(ApiKey::kMetadata);
        auto& b = body.add_element("brokers");
        b.set_int32("node_id", 7).set_string("host", "broker7").set_int32("port", 9092);
        return answer(r, body);
      }
      default:
        return std::nullopt;
    }
  };
}

ConnectionSettings plaintext(std::uint16_t port) {
  ConnectionSettings s;
  s.bootstrap = {{"127.0.0.1", port}};
  s.timeout = 3s;
  return s;
}

ConnectionSettings sasl_plain(std::uint16_t port, std::string password) {
  auto s = plaintext(port);
  s.security_protocol = SecurityProtocol::kSaslPlaintext;
  s.sasl_mechanism = SaslMechanism::kPlain;
  s.sasl_username = "alice";
  s.sasl_password = Secret(std::move(password));
  return s;
}

// Runs `client` against a fake broker; returns its error text or "ok", and what the broker saw.
std::string run(Responder respond, std::vector<std::string>& seen,
                const std::function<ConnectionSettings(std::uint16_t)>& settings_for,
                const std::function<void(BrokerChannel&)>& client = nullptr) {
  std::string result = "ok";
  {
    test::LoopbackServer server(fake_broker(std::move(respond), seen));
    try {
      ClusterConnector connector(settings_for(server.port()));
      auto channel = connector.open_bootstrap();
      if (client) client(channel);
    } catch (const std::exception& e) {
      result = e.what();
    }
  }
  return result;
}

}  // namespace

TEST_CASE("channel: ApiVersions, then requests at the highest version both speak",
          "[cluster][channel]") {
  std::vector<std::string> seen;
  std::int16_t metadata_version = -1;
  std::string host;
  const auto result = run(broker_with(), seen, plaintext, [&](BrokerChannel& c) {
    CHECK(c.api_versions_version() == 4);
    CHECK(c.broker_versions().at(3).highest == 9);
    metadata_version = c.version_for(ApiKey::kMetadata);
    auto body = protocol::make_request_body(ApiKey::kMetadata);
    host =
        c.send(ApiKey::kMetadata, body).get_array("brokers").at(0).as_struct().get_string("host");
    CHECK_THROWS_WITH(
        c.version_for(ApiKey::kListOffsets),
        Contains("no ListOffsets version both sides speak") && Contains("broker: none"));
    CHECK_THROWS_WITH(c.send(ApiKey::kMetadata, 10, body),
                      Contains("the broker does not speak Metadata v10 (it speaks: v0..v9)"));
  });
  CHECK(result == "ok");
  CHECK(metadata_version == 9);
  CHECK(host == "broker7");
  CHECK(seen == std::vector<std::string>{"ApiVersions v4 #0", "Metadata v9 #1"});
}

TEST_CASE("channel: the finalized feature levels of the ApiVersions answer", "[cluster][channel]") {
  std::vector<std::string> seen;
  const auto with_features = [](const protocol::DecodedRequest& r) -> std::optional<Frame> {
    if (r.header.api_key != 18) return std::nullopt;
    Struct body = api_versions_body(0, kBrokerRanges);
    body.set_int64("finalized_features_epoch", 12);
    auto& f = body.add_element("finalized_features");
    f.set_string("name", "eligible.leader.replicas.version");
    f.set_int16("max_version_level", 1);
    f.set_int16("min_version_level", 1);
    return answer(r, body);
  };
  std::optional<std::map<std::string, std::int16_t>> features, none;
  CHECK(run(broker_with(with_features), seen, plaintext,
            [&](BrokerChannel& c) { features = c.finalized_features(); }) == "ok");
  REQUIRE(features);
  CHECK(*features == std::map<std::string, std::int16_t>{{"eligible.leader.replicas.version", 1}});
  // No finalized features epoch: the broker did not say, which is not "none finalized".
  none.emplace();
  CHECK(run(broker_with(), seen, plaintext,
            [&](BrokerChannel& c) { none = c.finalized_features(); }) == "ok");
  CHECK_FALSE(none);
}

TEST_CASE(
    "channel: UNSUPPORTED_VERSION in a v0 body, then ApiVersions again at the broker's "
    "highest",
    "[cluster][channel]") {
  std::vector<std::string> seen;
  const auto old_broker = [](const protocol::DecodedRequest& r) -> std::optional<Frame> {
    if (r.header.api_key != 18 || r.header.api_version <= 2) return std::nullopt;
    // Kafka's broker answers a version it does not know in v0, listing its own range.
    return protocol::encode_response(ApiKey::kApiVersions, 0, r.header.correlation_id,
                                     api_versions_body(35, {{ApiKey::kApiVersions, 0, 2}}));
  };
  const auto result = run(broker_with(old_broker), seen, plaintext,
                          [](BrokerChannel& c) { CHECK(c.api_versions_version() == 2); });
  CHECK(result == "ok");
  CHECK(seen == std::vector<std::string>{"ApiVersions v4 #0", "ApiVersions v2 #1"});
}

TEST_CASE("channel: SASL PLAIN, SaslHandshake v1 then SaslAuthenticate", "[cluster][channel]") {
  std::vector<std::string> seen;
  std::string mechanism, auth_bytes;
  const auto sasl = [&](const protocol::DecodedRequest& r) -> std::optional<Frame> {
    if (r.header.api_key == 17) {
      mechanism = r.body.get_string("mechanism");
      Struct body = protocol::make_response_body(ApiKey::kSaslHandshake);
      body.set_string_array("mechanisms", {"PLAIN", "SCRAM-SHA-512"});
      return answer(r, body);
    }
    if (r.header.api_key == 36) {
      const auto& bytes = r.body.get_bytes("auth_bytes");
      auth_bytes.assign(bytes.begin(), bytes.end());
      Struct body = protocol::make_response_body(ApiKey::kSaslAuthenticate);
      if (auth_bytes != std::string("\0alice\0right", 12)) {
        body.set_int16("error_code", 58);
        body.set_string("error_message", "Authentication failed: Invalid username or password");
      }
      return answer(r, body);
    }
    return std::nullopt;
  };
  CHECK(run(
            broker_with(sasl), seen, [](auto port) { return sasl_plain(port, "right"); },
            [](BrokerChannel& c) {
              c.send(ApiKey::kMetadata, protocol::make_request_body(ApiKey::kMetadata));
            }) == "ok");
  CHECK(mechanism == "PLAIN");
  CHECK(seen == std::vector<std::string>{"ApiVersions v4 #0", "SaslHandshake v1 #1",
                                         "SaslAuthenticate v1 #2", "Metadata v9 #3"});
  seen.clear();
  const auto refused =
      run(broker_with(sasl), seen, [](auto port) { return sasl_plain(port, "wrong"); });
  CHECK_THAT(refused, Contains("127.0.0.1:"));
  CHECK_THAT(refused, Contains(": Authentication failed: Invalid username or password"));
  CHECK_THAT(refused, !Contains("wrong"));
}

TEST_CASE("channel: SASL refusals before authentication", "[cluster][channel]") {
  std::vector<std::string> seen;
  const auto handshake_error = [](std::int16_t code) {
    return [code](const protocol::DecodedRequest& r) -> std::optional<Frame> {
      if (r.header.api_key != 17) return std::nullopt;
      Struct body = protocol::make_response_body(ApiKey::kSaslHandshake);
      body.set_int16("error_code", code);
      body.set_string_array("mechanisms", {"SCRAM-SHA-512"});
      return answer(r, body);
    };
  };
  const auto plain = [](auto port) { return sasl_plain(port, "p"); };
  CHECK_THAT(
      run(broker_with(handshake_error(33)), seen, plain),
      Contains("the broker does not enable SASL mechanism PLAIN (it enables: SCRAM-SHA-512)"));
  CHECK_THAT(run(broker_with(handshake_error(34)), seen, plain),
             Contains("refused the SASL handshake (ILLEGAL_SASL_STATE): is this a SASL listener?"));
}

TEST_CASE("channel: correlation ids are checked, a broken channel stays broken",
          "[cluster][channel]") {
  std::vector<std::string> seen;
  const auto liar = [](const protocol::DecodedRequest& r) -> std::optional<Frame> {
    if (r.header.api_key != 3) return std::nullopt;
    return protocol::encode_response(ApiKey::kMetadata, r.header.api_version,
                                     r.header.correlation_id + 5,
                                     protocol::make_response_body(ApiKey::kMetadata));
  };
  std::string second;
  const auto first = run(broker_with(liar), seen, plaintext, [&](BrokerChannel& c) {
    const auto body = protocol::make_request_body(ApiKey::kMetadata);
    try {
      c.send(ApiKey::kMetadata, body);
    } catch (const ClusterError& e) {
      second = "first failed";
    }
    c.send(ApiKey::kMetadata, body);
  });
  CHECK(second == "first failed");
  CHECK_THAT(first, Contains("the connection was lost by an earlier request"));
  seen.clear();
  CHECK_THAT(run(broker_with(liar), seen, plaintext,
                 [](BrokerChannel& c) {
                   c.send(ApiKey::kMetadata, protocol::make_request_body(ApiKey::kMetadata));
                 }),
             Contains("the Metadata response has correlation id 6, the request had 1"));
}

TEST_CASE("channel: a broker that hangs up mid-request, and bootstrap fallback",
          "[cluster][channel]") {
  std::vector<std::string> seen;
  const auto metadata = [](BrokerChannel& c) {
    c.send(ApiKey::kMetadata, protocol::make_request_body(ApiKey::kMetadata));
  };
  const auto empty_frame = [](const protocol::DecodedRequest& r) -> std::optional<Frame> {
    if (r.header.api_key == 3) return Frame{};  // too short for a response header
    return std::nullopt;
  };
  const auto short_frame = run(broker_with(empty_frame), seen, plaintext, metadata);
  CHECK_THAT(short_frame, Contains("127.0.0.1:"));
  CHECK_THAT(short_frame, Contains("Metadata v9 response"));
  const Responder dies = [](const protocol::DecodedRequest& r) -> std::optional<Frame> {
    if (r.header.api_key == 18) return answer(r, api_versions_body(0, kBrokerRanges));
    return std::nullopt;  // the broker dies when the Metadata request comes
  };
  const auto died = run(dies, seen, plaintext, metadata);
  CHECK_THAT(died, Contains("127.0.0.1:"));
  CHECK_THAT(died, Contains(" closed the connection"));
  seen.clear();
  // Bootstrap: a closed port first, then the fake broker.
  const auto closed = test::closed_port();
  const auto result = run(broker_with(), seen, [closed](std::uint16_t port) {
    auto s = plaintext(port);
    s.bootstrap.insert(s.bootstrap.begin(), BrokerAddress{"127.0.0.1", closed});
    return s;
  });
  CHECK(result == "ok");
  // None answers: each broker's error, and how many were tried.
  ConnectionSettings none;
  none.bootstrap = {{"127.0.0.1", closed}, {"127.0.0.1", closed}};
  const auto refused =
      "cannot connect to 127.0.0.1:" + std::to_string(closed) + ": connection refused";
  CHECK_THROWS_WITH(
      ClusterConnector(none).open_bootstrap(),
      refused + "; " + refused + " (2 of 2 bootstrap brokers tried within 10000 ms, none ready)");
}

TEST_CASE(
    "channel: a peer that reads the ApiVersions request and closes, as a ZooKeeper "
    "server does (NIOServerCnxn reads a length, finds no ConnectRequest, closes), may "
    "be a ZooKeeper port",
    "[cluster][channel]") {
  std::string result = "ok";
  {
    test::LoopbackServer server([](int fd) {
      std::uint8_t size[4];
      if (::recv(fd, size, 4, MSG_WAITALL) != 4) return;
      std::vector<std::uint8_t> body((size[0] << 24) | (size[1] << 16) | (size[2] << 8) | size[3]);
      ::recv(fd, body.data(), body.size(), MSG_WAITALL);
    });
    try {
      ClusterConnector connector(plaintext(server.port()));
      connector.open_bootstrap();
    } catch (const std::exception& e) {
      result = e.what();
    }
  }
  CHECK_THAT(result, Contains("closed the connection without answering ApiVersions"));
  CHECK_THAT(result, Contains("it may be a ZooKeeper port"));
  CHECK_THAT(result, Contains("or a listener that expects TLS"));
}
