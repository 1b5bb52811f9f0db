#include <fcntl.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "kepoch/base/bulk_file_writer.hpp"
#include "support/scratch_files.hpp"

using namespace kepoch;

namespace {

struct ScratchDir {
  std::filesystem::path dir;
  explicit ScratchDir(const char* parent) {
    std::string tmpl = std::string(parent) + "/kepoch-bulk-XXXXXX";
    if (::mkdtemp(tmpl.data())) dir = tmpl;
  }
  ~ScratchDir() {
    if (!dir.empty()) std::filesystem::remove_all(dir);
  }
};

// Pieces of every size from 0 to past two chunks (room + advance and write), each byte
// telling its position: what the file must hold, in order.
std::string write_pieces(BulkFileWriter& w, std::size_t chunk) {
  std::string expected;
  std::uint32_t x = 12345;
  const std::size_t sizes[] = {0,    1,         7,     4095,      4096,
                               4097, chunk - 1, chunk, chunk + 1, 2 * chunk + 3};
  for (int round = 0; round < 6; ++round) {
    for (const std::size_t n : sizes) {
      std::string piece(n, '\0');
      for (auto& c : piece) {
        x = x * 1103515245 + 12345;
        c = static_cast<char>(x >> 23);
      }
      expected += piece;
      if (round % 2 == 0) {
        w.write(piece);
      } else {
        // More room asked than used, as a salvage line's bound is.
        char* at = w.room(n + 100);
        std::memcpy(at, piece.data(), n);
        w.advance(at + n);
      }
    }
  }
  return expected;
}

void check_writes(const std::filesystem::path& dir, bool direct) {
  for (const std::size_t chunk : {std::size_t{4096}, std::size_t{3 * 4096}, std::size_t{1} << 20}) {
    const auto file = dir / "out";
    std::filesystem::remove(file);
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    std::string expected;
    {
      BulkFileWriter w(fd, {.direct = direct, .sync = true, .chunk_bytes = chunk});
      expected = write_pieces(w, chunk);
      CHECK(w.bytes() == expected.size());
      w.finish();
    }
    ::close(fd);
    const auto got = test::slurp(file);
    INFO(dir << " direct " << direct << " chunk " << chunk << " first difference at "
             << (std::mismatch(got.begin(), got.end(), expected.begin(), expected.end()).first -
                 got.begin()));
    CHECK(got.size() == expected.size());
    CHECK(std::string(got.begin(), got.end()) == expected);
  }
}

}  // namespace

TEST_CASE("a bulk writer writes every byte in order, with O_DIRECT or without",
          "[base][bulk_file_writer]") {
  ScratchDir tmp("/tmp");
  REQUIRE(!tmp.dir.empty());
  check_writes(tmp.dir, false);
  check_writes(tmp.dir, true);
  // A file system without O_DIRECT (tmpfs on an older kernel) takes the same chunks through
  // the page cache.
  if (std::filesystem::is_directory("/dev/shm")) {
    ScratchDir shm("/dev/shm");
    if (!shm.dir.empty()) check_writes(shm.dir, true);
  }
}

TEST_CASE("a bulk writer with O_DIRECT on a disk file system uses it", "[base][bulk_file_writer]") {
  ScratchDir tmp("/tmp");
  REQUIRE(!tmp.dir.empty());
  const auto file = tmp.dir / "out";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  BulkFileWriter w(fd, {.direct = true, .sync = true, .chunk_bytes = 8192});
  w.write(std::string(5 * 8192 + 17, 'x'));
  w.finish();
  ::close(fd);
  CHECK(std::filesystem::file_size(file) == 5 * 8192 + 17);
  CHECK(test::slurp(file) == std::vector<std::uint8_t>(5 * 8192 + 17, 'x'));
  // Where the file system takes O_DIRECT it was used (elsewhere the writer fell back, and
  // the bytes above are right either way).
  const auto probe = tmp.dir / "probe";
  const int direct = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_DIRECT | O_CLOEXEC, 0644);
  if (direct >= 0) {
    ::close(direct);
    CHECK(w.wrote_direct());
  }
}

TEST_CASE("a bulk writer's failed write is an error, not a short file",
          "[base][bulk_file_writer]") {
  ScratchDir tmp("/tmp");
  REQUIRE(!tmp.dir.empty());
  const auto file = tmp.dir / "ro";
  test::spit(file, {});
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);  // every write fails (EBADF)
  REQUIRE(fd >= 0);
  {
    BulkFileWriter w(fd, {.chunk_bytes = 4096});
    CHECK_THROWS_AS(
        [&] {
          for (int i = 0; i < 10; ++i)
            w.write(std::string(4096, 'x'));
          w.finish();
        }(),
        FileWriteError);
  }
  {
    BulkFileWriter w(fd, {});
    w.write("short");
    try {
      w.finish();
      FAIL("no error");
    } catch (const FileWriteError& e) {
      CHECK(e.error() == EBADF);
    }
  }
  ::close(fd);
}
