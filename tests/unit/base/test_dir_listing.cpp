// base/dir_listing: the one directory listing every walk uses. Both ways (getdents64 on the
// open dir, std::filesystem for a dir that did not open) show the same entries with the same
// types, links followed as java.io.File.isFile / isDirectory follow them, and the same error.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "kepoch/base/dir_listing.hpp"
#include "kepoch/base/read_only_file.hpp"

namespace fs = std::filesystem;
using kepoch::DirFd;
using kepoch::list_directory;
using kepoch::ListedEntry;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/kepoch-listing-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// name, symlink, is_file, is_dir, stat_target's errno, size from it (0 unless a file)
using Row = std::tuple<std::string, bool, bool, bool, int, long>;

std::vector<Row> rows(const fs::path& dir, int fd) {
  std::vector<Row> out;
  const auto ec = list_directory(dir, fd, [&](const ListedEntry& e) {
    struct stat st {};
    const int err = e.stat_target(st);
    out.emplace_back(std::string(e.name), e.symlink, e.is_file, e.is_dir, err,
                     err == 0 && S_ISREG(st.st_mode) ? static_cast<long>(st.st_size) : 0L);
    // The name is a C string (the callers open it relative to the dir).
    CHECK(e.name.data()[e.name.size()] == '\0');
  });
  CHECK_FALSE(ec);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("dir listing: every entry but . and .., types and links as File.isFile/isDirectory") {
  TempDir t;
  std::ofstream(t.path / "00000000000000000000.log") << "12345";
  fs::create_directory(t.path / "sub");
  ::mkfifo((t.path / "fifo").c_str(), 0600);
  fs::create_symlink("00000000000000000000.log", t.path / "link-to-file");
  fs::create_symlink("sub", t.path / "link-to-dir");
  fs::create_symlink("nowhere", t.path / "dangling");

  const DirFd handle(t.path);
  REQUIRE(handle.fd() >= 0);
  const std::vector<Row> want = {
      {"00000000000000000000.log", false, true, false, 0, 5},
      {"dangling", true, false, false, ENOENT, 0},
      {"fifo", false, false, false, 0, 0},
      {"link-to-dir", true, false, true, 0, 0},
      {"link-to-file", true, true, false, 0, 5},
      {"sub", false, false, true, 0, 0},
  };
  CHECK(rows(t.path, handle.fd()) == want);  // getdents64
  CHECK(rows(t.path, -1) == want);           // std::filesystem
}

TEST_CASE("dir listing: a dir that cannot be listed is an error, the same both ways") {
  TempDir t;
  const fs::path missing = t.path / "missing";
  const auto by_path = list_directory(missing, -1, [](const ListedEntry&) { FAIL("visited"); });
  CHECK(by_path == std::errc::no_such_file_or_directory);
  const auto opened = list_directory(missing, [](const ListedEntry&) { FAIL("visited"); });
  CHECK(opened == std::errc::no_such_file_or_directory);
  std::ofstream(t.path / "file") << "x";
  CHECK(list_directory(t.path / "file", [](const ListedEntry&) {}) == std::errc::not_a_directory);
  int n = 0;
  CHECK_FALSE(list_directory(t.path, [&](const ListedEntry&) { ++n; }));
  CHECK(n == 1);
}
