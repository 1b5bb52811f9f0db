// The static build's resolver (host_resolver.hpp): /etc/hosts as glibc's files module reads
// it (nss/nss_files/files-hosts.c: the first field an address, then the canonical name and
// aliases, compared case-insensitively, every matching line's address) and the answer section
// of a DNS response (RFC 1035 4.1, with 4.1.4's name compression).
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kepoch/cluster/host_resolver.hpp"

using namespace kepoch::cluster;

namespace {

using Strings = std::vector<std::string>;

constexpr const char* kHosts =
    "# /etc/hosts of a broker host\n"
    "127.0.0.1\tlocalhost\n"
    "::1     localhost ip6-localhost ip6-loopback\n"
    "10.0.0.11 kafka-1.example.com kafka-1   # the first broker\n"
    "10.0.0.12 kafka-2.example.com kafka-2\n"
    "not-an-address kafka-3\n"
    "10.0.0.13\n"
    "#10.0.0.99 kafka-1\n"
    "fe80::1%eth0 link-local-broker\n"
    "10.0.0.21 KAFKA-1\n"
    "10.0.0.11 kafka-1-again kafka-1\n"
    "10.0.0.14 kafka-4";  // no newline at the end

}  // namespace

TEST_CASE("/etc/hosts: every line naming the host, in file order, each address once",
          "[cluster][host_resolver]") {
  CHECK(hosts_file_addresses(kHosts, "kafka-1") == Strings{"10.0.0.11", "10.0.0.21"});
  CHECK(hosts_file_addresses(kHosts, "Kafka-1.Example.COM") == Strings{"10.0.0.11"});
  CHECK(hosts_file_addresses(kHosts, "localhost") == Strings{"127.0.0.1", "::1"});
  CHECK(hosts_file_addresses(kHosts, "ip6-loopback") == Strings{"::1"});
  CHECK(hosts_file_addresses(kHosts, "link-local-broker") == Strings{"fe80::1%eth0"});
  CHECK(hosts_file_addresses(kHosts, "kafka-4") == Strings{"10.0.0.14"});
}

TEST_CASE("/etc/hosts: comments, lines without an address, and partial names match nothing",
          "[cluster][host_resolver]") {
  CHECK(hosts_file_addresses(kHosts, "kafka-3").empty());          // first field not an address
  CHECK(hosts_file_addresses(kHosts, "the").empty());              // inside a comment
  CHECK(hosts_file_addresses(kHosts, "kafka").empty());            // a prefix is not the name
  CHECK(hosts_file_addresses(kHosts, "10.0.0.13").empty());        // an address is not a name
  CHECK(hosts_file_addresses(kHosts, "kafka-2.example").empty());  // nor a part of a name
  CHECK(hosts_file_addresses("", "localhost").empty());
  CHECK(hosts_file_addresses("\r\n\t\n", "localhost").empty());
}

namespace {

void u16(std::vector<std::uint8_t>& m, std::uint16_t v) {
  m.push_back(static_cast<std::uint8_t>(v >> 8));
  m.push_back(static_cast<std::uint8_t>(v));
}

void name(std::vector<std::uint8_t>& m, std::initializer_list<std::string_view> labels) {
  for (auto label : labels) {
    m.push_back(static_cast<std::uint8_t>(label.size()));
    m.insert(m.end(), label.begin(), label.end());
  }
  m.push_back(0);
}

void record(std::vector<std::uint8_t>& m, std::uint16_t type, std::uint16_t rclass,
            std::vector<std::uint8_t> rdata) {
  u16(m, 0xC00C);  // a pointer to the question's name, at offset 12
  u16(m, type);
  u16(m, rclass);
  u16(m, 0);
  u16(m, 300);  // TTL
  u16(m, static_cast<std::uint16_t>(rdata.size()));
  m.insert(m.end(), rdata.begin(), rdata.end());
}

// A recursive server's answer to "A kafka.example.com": a CNAME to broker.example.com, then
// two A records, an AAAA, a record of class CHAOS and an A record whose RDATA is not 4 bytes.
std::vector<std::uint8_t> answer() {
  std::vector<std::uint8_t> m;
  // Header: id, flags (a response, recursion available), 1 question, 7 answers.
  for (std::uint16_t v : std::initializer_list<std::uint16_t>{0x1234, 0x8180, 1, 7, 0, 0})
    u16(m, v);
  name(m, {"kafka", "example", "com"});
  u16(m, 1);  // QTYPE A
  u16(m, 1);  // QCLASS IN
  std::vector<std::uint8_t> cname;
  name(cname, {"broker", "example", "com"});
  record(m, 5, 1, cname);
  record(m, 1, 1, {10, 0, 0, 11});
  record(m, 28, 1, {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11});
  record(m, 1, 3, {10, 9, 9, 9});  // class CH
  record(m, 1, 1, {10, 0, 0});     // malformed RDATA length
  record(m, 1, 1, {10, 0, 0, 12});
  return m;
}

}  // namespace

TEST_CASE("DNS answer: A and AAAA records of class IN, CNAMEs and others passed over",
          "[cluster][host_resolver]") {
  CHECK(dns_answer_addresses(answer()) == Strings{"10.0.0.11", "2001:db8::11", "10.0.0.12"});
}

TEST_CASE("DNS answer: a message cut short gives what came before the cut, never more",
          "[cluster][host_resolver]") {
  const auto whole = answer();
  for (std::size_t length = 0; length < whole.size(); ++length) {
    const auto got = dns_answer_addresses(std::span<const std::uint8_t>(whole.data(), length));
    const Strings all{"10.0.0.11", "2001:db8::11", "10.0.0.12"};
    REQUIRE(got.size() <= all.size());
    CHECK(std::equal(got.begin(), got.end(), all.begin()));
  }
  CHECK(dns_answer_addresses(std::span<const std::uint8_t>(whole.data(), whole.size() - 1)) ==
        Strings{"10.0.0.11", "2001:db8::11"});
}

TEST_CASE("DNS answer: a reserved label type (01, 10) ends the reading",
          "[cluster][host_resolver]") {
  auto m = answer();
  m[12] = 0x45;  // the question's first label length with the reserved bits 01
  CHECK(dns_answer_addresses(m).empty());
}

TEST_CASE("resolve without NSS: a name in the hosts file needs no DNS",
          "[cluster][host_resolver]") {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "kepoch-host-resolver.XXXXXX").string();
  const std::filesystem::path dir = mkdtemp(pattern.data());
  const auto hosts = (dir / "hosts").string();
  std::ofstream(hosts) << kHosts;
  const auto found = resolve_host_without_nss("kafka-2", hosts);
  std::filesystem::remove_all(dir);
  CHECK(found.addresses == Strings{"10.0.0.12"});
  CHECK(found.error.empty());
}
