// ReadOnlyFile's opens that trust a directory listing (listed_regular, listed_with_size):
// the same bytes, size and errors as the checked constructor, whatever the file turns out
// to be, and no blocking on a FIFO.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"

namespace fs = std::filesystem;
using kepoch::InputError;
using kepoch::ReadOnlyFile;

namespace {

struct Dir {
  fs::path path;
  int fd = -1;
  Dir() {
    char tmpl[] = "/tmp/kepoch-rof-XXXXXX";
    path = ::mkdtemp(tmpl);
    fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  }
  ~Dir() {
    ::close(fd);
    fs::remove_all(path);
  }
  Dir(const Dir&) = delete;
  Dir& operator=(const Dir&) = delete;
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path / name, std::ios::binary) << bytes;
  }
  std::string text(const std::string& name) const { return (path / name).string(); }
};

std::string whole(const ReadOnlyFile& f) {
  std::string out(f.size(), '\0');
  out.resize(f.read_at(0, {reinterpret_cast<std::uint8_t*>(out.data()), out.size()}));
  return out;
}

// The checked constructor's error message for `name`, or "" when it opens.
std::string checked_error(const Dir& d, const std::string& name) {
  try {
    ReadOnlyFile f(d.fd, name.c_str(), d.text(name));
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

std::string listed_error(const Dir& d, const std::string& name) {
  try {
    ReadOnlyFile f = ReadOnlyFile::listed_regular(d.fd, name.c_str(), d.text(name));
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("listed_regular reads a small file whole, as the checked open does") {
  Dir d;
  d.write("leader-epoch-checkpoint", "0\n1\n0 0\n");
  const ReadOnlyFile f = ReadOnlyFile::listed_regular(d.fd, "leader-epoch-checkpoint",
                                                      d.text("leader-epoch-checkpoint"));
  CHECK(f.size() == 8);
  CHECK(whole(f) == "0\n1\n0 0\n");
  CHECK(f.path() == d.text("leader-epoch-checkpoint"));
  CHECK(kepoch::read_small_file(f, 100) == "0\n1\n0 0\n");
  // A read past the end, and next_data, behave as for an open file.
  std::vector<std::uint8_t> buf(4);
  CHECK(f.read_at(6, buf) == 2);
  CHECK(f.read_at(8, buf) == 0);
  CHECK(f.next_data(3) == 3);
}

TEST_CASE("listed_regular falls back to the checks for empty and larger files") {
  Dir d;
  d.write("empty", "");
  const std::string big(ReadOnlyFile::kHeldBytes * 3 + 5, 'x');
  d.write("big", big);
  const std::string exact(ReadOnlyFile::kHeldBytes, 'y');
  d.write("exact", exact);
  const ReadOnlyFile e = ReadOnlyFile::listed_regular(d.fd, "empty", d.text("empty"));
  CHECK(e.size() == 0);
  CHECK(whole(e).empty());
  const ReadOnlyFile b = ReadOnlyFile::listed_regular(d.fd, "big", d.text("big"));
  CHECK(b.size() == big.size());
  CHECK(whole(b) == big);
  const ReadOnlyFile x = ReadOnlyFile::listed_regular(d.fd, "exact", d.text("exact"));
  CHECK(x.size() == exact.size());
  CHECK(whole(x) == exact);
}

TEST_CASE("listed_regular gives the checked open's errors for what is not a regular file") {
  Dir d;
  fs::create_directory(d.path / "a-dir");
  REQUIRE(::mkfifo((d.path / "a-fifo").c_str(), 0600) == 0);  // must not block
  d.write("target", "abc");
  fs::create_symlink(d.path / "target", d.path / "a-link");
  fs::create_symlink(d.path / "nowhere", d.path / "dangling");
  for (const char* name : {"a-dir", "a-fifo", "dangling", "missing"}) {
    INFO(name);
    const std::string want = checked_error(d, name);
    CHECK_FALSE(want.empty());
    CHECK(listed_error(d, name) == want);
  }
  // A link (listed as a regular file by mistake, or swapped in since) is still followed.
  const ReadOnlyFile l = ReadOnlyFile::listed_regular(d.fd, "a-link", d.text("a-link"));
  CHECK(whole(l) == "abc");
}

TEST_CASE("listed_with_size takes the listing's size and reads the file") {
  Dir d;
  d.write("00000000000000000000.log", "0123456789");
  const ReadOnlyFile f = ReadOnlyFile::listed_with_size(d.fd, "00000000000000000000.log",
                                                        d.text("00000000000000000000.log"), 10);
  CHECK(f.size() == 10);
  CHECK(whole(f) == "0123456789");
  // Grown since the listing: read to the listed size, as the listing's summary says.
  const ReadOnlyFile g = ReadOnlyFile::listed_with_size(d.fd, "00000000000000000000.log",
                                                        d.text("00000000000000000000.log"), 4);
  CHECK(whole(g) == "0123");
  CHECK_THROWS_AS(ReadOnlyFile::listed_with_size(d.fd, "gone.log", d.text("gone.log"), 4),
                  InputError);
}
