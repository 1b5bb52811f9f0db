#include <catch2/catch.hpp>

#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/frame_io.hpp"

using namespace kepoch::cluster;
using Catch::Matchers::Contains;

namespace {

// Bytes in, bytes out: a stream over memory.
class MemoryStream : public ByteStream {
 public:
  explicit MemoryStream(std::vector<std::uint8_t> input) : input_(std::move(input)) {}
  void write_all(std::span<const std::uint8_t> bytes, Deadline) override {
    output.insert(output.end(), bytes.begin(), bytes.end());
  }
  void read_exact(std::span<std::uint8_t> out, Deadline) override {
    if (input_.size() - pos_ < out.size()) throw ClusterError(peer_, "mem:1 closed the connection");
    std::copy_n(input_.begin() + static_cast<std::ptrdiff_t>(pos_), out.size(), out.begin());
    pos_ += out.size();
    reads.push_back(out.size());
  }
  const std::string& peer() const override { return peer_; }

  std::vector<std::uint8_t> output;
  std::vector<std::size_t> reads;

 private:
  std::vector<std::uint8_t> input_;
  std::size_t pos_ = 0;
  std::string peer_ = "mem:1";
};

std::string failure(MemoryStream& stream) {
  try {
    read_frame(stream, deadline_after(std::chrono::seconds(1)));
  } catch (const ClusterError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("frames: int32 big-endian size, then the payload", "[cluster][frame]") {
  MemoryStream s({0, 0, 1, 2, 9, 9});
  const std::vector<std::uint8_t> payload(258, 0xab);
  write_frame(s, payload, deadline_after(std::chrono::seconds(1)));
  REQUIRE(s.output.size() == 262);
  CHECK(std::vector(s.output.begin(), s.output.begin() + 4) ==
        std::vector<std::uint8_t>{0, 0, 1, 2});

  MemoryStream in({0, 0, 0, 2, 7, 8, 0, 0, 0, 0});
  CHECK(read_frame(in, deadline_after(std::chrono::seconds(1))) == std::vector<std::uint8_t>{7, 8});
  CHECK(read_frame(in, deadline_after(std::chrono::seconds(1))).empty());
}

TEST_CASE("frames: the size is checked before anything is allocated", "[cluster][frame]") {
  MemoryStream negative({0x80, 0, 0, 0});
  CHECK(failure(negative) ==
        "mem:1 sent a frame of -2147483648 bytes (limit 104857600): not a Kafka response");
  CHECK(negative.reads == std::vector<std::size_t>{4});  // no attempt to read the body
  MemoryStream huge({0x10, 0, 0, 0});
  CHECK_THAT(failure(huge), Contains("sent a frame of 268435456 bytes"));
  MemoryStream at_limit({0x06, 0x40, 0, 1});
  CHECK_THAT(failure(at_limit), Contains("104857601 bytes (limit 104857600)"));
  MemoryStream truncated({0, 0, 0, 5, 1, 2});
  CHECK(failure(truncated) == "mem:1 closed the connection");
}

TEST_CASE("frames: a TLS record where a size belongs means an SSL listener", "[cluster][frame]") {
  // A TLS alert (content type 21, version 3.3), as a TLS port answers plaintext bytes.
  MemoryStream alert({0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x50});
  CHECK(failure(alert) ==
        "mem:1 answered with TLS: it is an SSL listener (use security.protocol SSL or SASL_SSL)");
  MemoryStream handshake({0x16, 0x03, 0x01, 0x00});
  CHECK_THAT(failure(handshake), Contains("answered with TLS"));
}

TEST_CASE("frames: an HTTP answer is named", "[cluster][frame]") {
  MemoryStream http({'H', 'T', 'T', 'P', '/', '1', '.', '1'});
  CHECK(failure(http) ==
        "mem:1 answered in HTTP: it is not a Kafka listener (a web server or proxy?)");
}
