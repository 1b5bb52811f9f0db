#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>

#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/frame_io.hpp"
#include "kepoch/cluster/tcp_stream.hpp"
#include "support/loopback_server.hpp"
#include "support/time_scale.hpp"

using namespace kepoch::cluster;
using namespace std::chrono_literals;
using Catch::Matchers::Contains;

namespace {

std::string failure(const std::function<void()>& f) {
  try {
    f();
  } catch (const ClusterError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("TCP: frames go out size-prefixed and come back whole", "[cluster][tcp]") {
  std::string request(9, '?');  // what the server read (checked here: Catch2 is one-threaded)
  {
    test::LoopbackServer server([&request](int fd) {
      std::size_t got = 0;
      while (got < request.size()) {
        const auto n = recv(fd, request.data() + got, request.size() - got, 0);
        if (n <= 0) return;
        got += static_cast<std::size_t>(n);
      }
      // Answer in two pieces, so the client has to reassemble.
      const unsigned char reply[] = {0, 0, 0, 3, 'a', 'b', 'c'};
      send(fd, reply, 5, MSG_NOSIGNAL);
      std::this_thread::sleep_for(20ms);
      send(fd, reply + 5, 2, MSG_NOSIGNAL);
    });
    TcpStream tcp({"127.0.0.1", server.port()}, deadline_after(2s), 2s);
    CHECK(tcp.peer() == "127.0.0.1:" + std::to_string(server.port()));
    const std::string hello = "hello";
    write_frame(tcp, std::span(reinterpret_cast<const std::uint8_t*>(hello.data()), hello.size()),
                deadline_after(2s));
    const auto reply = read_frame(tcp, deadline_after(2s));
    CHECK(std::string(reply.begin(), reply.end()) == "abc");
  }
  CHECK(request == std::string("\0\0\0\x05hello", 9));
}

TEST_CASE("TCP: names resolve, a closed port is 'connection refused'", "[cluster][tcp]") {
  const auto port = test::closed_port();
  CHECK(failure([&] {
          TcpStream({"127.0.0.1", port}, deadline_after(2s), 2s);
        }) == "cannot connect to 127.0.0.1:" + std::to_string(port) + ": connection refused");
  CHECK(failure([&] {
          TcpStream({"localhost", port}, deadline_after(2s), 2s);
        }) == "cannot connect to localhost:" + std::to_string(port) + ": connection refused");
  CHECK_THAT(failure([&] {
               TcpStream({"no-such-host.invalid", 9092}, deadline_after(5s), 5s);
             }),
             Contains("cannot resolve no-such-host.invalid:9092: "));
}

TEST_CASE("TCP: a silent broker times out at the deadline, EOF is named", "[cluster][tcp]") {
  SECTION("silence") {
    test::LoopbackServer server([](int fd) { test::read_n(fd, 4); });
    TcpStream tcp({"127.0.0.1", server.port()}, deadline_after(2s), 300ms);
    std::uint8_t byte[1];
    const auto start = Clock::now();
    CHECK(failure([&] { tcp.read_exact(byte, deadline_after(300ms)); }) ==
          "reading from " + tcp.peer() + " timed out after 300 ms");
    const auto took = Clock::now() - start;
    CHECK(took >= 290ms);
    CHECK(took < test::scaled(2s));
    const std::uint8_t four[4] = {1, 2, 3, 4};
    tcp.write_all(four, deadline_after(1s));  // lets the server finish
  }
  SECTION("EOF") {
    test::LoopbackServer server([](int) {});
    TcpStream tcp({"127.0.0.1", server.port()}, deadline_after(2s), 2s);
    std::uint8_t byte[1];
    CHECK(failure([&] { tcp.read_exact(byte, deadline_after(2s)); }) ==
          tcp.peer() + " closed the connection");
  }
  SECTION("writing to a closed socket is an error, not SIGPIPE") {
    test::LoopbackServer server([](int fd) {
      // The reset comes only after the client's first byte: a reset racing the connect itself
      // fails the connect instead ("connection reset by peer", seen on a loaded machine).
      test::read_n(fd, 1);
      linger l{1, 0};  // close with RST
      setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
    });
    TcpStream tcp({"127.0.0.1", server.port()}, deadline_after(2s), 2s);
    const std::uint8_t one[1] = {0};
    tcp.write_all(one, deadline_after(1s));
    std::this_thread::sleep_for(100ms);
    std::vector<std::uint8_t> big(1 << 20);
    CHECK_THAT(failure([&] {
                 for (int i = 0; i < 8; ++i)
                   tcp.write_all(big, deadline_after(2s));
               }),
               Contains("writing to " + tcp.peer()));
  }
}
