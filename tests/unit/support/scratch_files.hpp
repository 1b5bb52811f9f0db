#pragma once
// Scratch copies of real Kafka-written files for the tests that damage them: whole files in
// and out, and a replica dir copied into its own scratch log dir (no clean-shutdown marker,
// no checkpoints unless a test writes them), removed when the test ends.

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace test {

inline std::vector<std::uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

inline void spit(const std::filesystem::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

struct ScratchReplica {
  std::filesystem::path logdir;
  std::filesystem::path dir;
  explicit ScratchReplica(const std::filesystem::path& source) {
    char tmpl[] = "/tmp/kepoch-replica-XXXXXX";
    logdir = ::mkdtemp(tmpl);
    dir = logdir / source.filename();
    std::filesystem::copy(source, dir, std::filesystem::copy_options::recursive);
  }
  ~ScratchReplica() { std::filesystem::remove_all(logdir); }
  ScratchReplica(const ScratchReplica&) = delete;
  ScratchReplica& operator=(const ScratchReplica&) = delete;
  std::filesystem::path file(const std::string& name) const { return dir / name; }
  void flip(const std::string& name, std::size_t at) const {
    auto b = slurp(file(name));
    b.at(at) ^= 0x01;
    spit(file(name), b);
  }
  void clean_shutdown() const { std::ofstream(logdir / ".kafka_cleanshutdown"); }
  void recovery_point(const std::string& topic, std::int64_t offset) const {
    std::ofstream(logdir / "recovery-point-offset-checkpoint") << "0\n1\n"
                                                               << topic << " 0 " << offset << "\n";
  }
};

}  // namespace test
