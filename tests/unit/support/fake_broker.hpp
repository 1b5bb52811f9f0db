#pragma once
// A fake Kafka broker for loopback_server: reads size-prefixed requests, decodes them with
// kepoch's codec and writes what a responder says, until the client hangs up or the
// responder answers nullopt. Used where a real broker cannot be made to misbehave on cue.

#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "kepoch/cluster/protocol/messages.hpp"

namespace test {

using Frame = std::vector<std::uint8_t>;

// The response to `request` with `body`, at the request's version and correlation id.
inline Frame answer(const kepoch::cluster::protocol::DecodedRequest& request,
                    const kepoch::cluster::protocol::Struct& body) {
  namespace protocol = kepoch::cluster::protocol;
  return protocol::encode_response(static_cast<protocol::ApiKey>(request.header.api_key),
                                   request.header.api_version, request.header.correlation_id, body);
}

inline bool is(const kepoch::cluster::protocol::DecodedRequest& request,
               kepoch::cluster::protocol::ApiKey api) {
  return request.header.api_key == static_cast<std::int16_t>(api);
}

// One API's version range in an ApiVersions answer.
struct ApiRange {
  kepoch::cluster::protocol::ApiKey api;
  std::int16_t min, max;
};

// An ApiVersions answer's body: `error` and the version ranges the broker speaks.
inline kepoch::cluster::protocol::Struct api_versions_body(std::int16_t error,
                                                           const std::vector<ApiRange>& ranges) {
  namespace protocol = kepoch::cluster::protocol;
  protocol::Struct body = protocol::make_response_body(protocol::ApiKey::kApiVersions);
  body.set_int16("error_code", error);
  for (const auto& r : ranges)
    body.add_element("api_keys")
        .set_int16("api_key", static_cast<std::int16_t>(r.api))
        .set_int16("min_version", r.min)
        .set_int16("max_version", r.max);
  return body;
}
// The fake broker's answer to one request: a response frame, or nullopt to hang up.
using Responder =
    std::function<std::optional<Frame>(const kepoch::cluster::protocol::DecodedRequest&)>;

inline bool read_all(int fd, std::uint8_t* out, std::size_t n) {
  while (n > 0) {
    const auto got = recv(fd, out, n, 0);
    if (got <= 0) return false;
    out += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

// `observe` sees every decoded request before the responder does.
inline std::function<void(int)> fake_broker(
    Responder respond,
    std::function<void(const kepoch::cluster::protocol::DecodedRequest&)> observe = nullptr) {
  return [respond, observe](int fd) {
    while (true) {
      std::uint8_t head[4];
      if (!read_all(fd, head, 4)) return;
      Frame request(std::size_t(head[0]) << 24 | std::size_t(head[1]) << 16 |
                    std::size_t(head[2]) << 8 | head[3]);
      if (!read_all(fd, request.data(), request.size())) return;
      const auto decoded = kepoch::cluster::protocol::decode_request(request);
      if (observe) observe(decoded);
      const auto answer = respond(decoded);
      if (!answer) return;
      Frame framed = {std::uint8_t(answer->size() >> 24), std::uint8_t(answer->size() >> 16),
                      std::uint8_t(answer->size() >> 8), std::uint8_t(answer->size())};
      framed.insert(framed.end(), answer->begin(), answer->end());
      send(fd, framed.data(), framed.size(), MSG_NOSIGNAL);
    }
  };
}

}  // namespace test
