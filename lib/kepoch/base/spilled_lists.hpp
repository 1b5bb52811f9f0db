#pragma once
// Lists of short texts, appended to in any order and read back whole, held in an anonymous
// temporary file rather than in memory (issue 41: `kepoch plan -o json` keeps the names its
// start order prints this way, a few bytes a partition otherwise held to the end). Memory
// holds each list's last chunk not yet written (under kChunk bytes) and where its written
// chunks are in the file.

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kepoch {

// An anonymous temporary file, read and written: tmpfile() (on /tmp's disk), else an
// anonymous memory file (a host or a chroot with no writable /tmp); never named, gone when
// closed, never in a log dir. InputError ("temporary file": cannot create one for `what`)
// when neither can be made.
std::FILE* anonymous_temporary_file(const std::string& what);

class SpilledLists {
 public:
  static constexpr std::size_t kChunk = 1024;

  // `what` names the lists in an error ("the report").
  explicit SpilledLists(std::string what);
  ~SpilledLists();
  SpilledLists(const SpilledLists&) = delete;
  SpilledLists& operator=(const SpilledLists&) = delete;

  std::size_t add_list();  // a new, empty list: its number
  void append(std::size_t list, std::string_view text);
  void clear(std::size_t list);  // empty again (what it wrote stays in the file, unread)
  std::uint64_t size(std::size_t list) const { return lists_[list].size; }
  // Each text of `list`, in the order appended.
  void for_each(std::size_t list, const std::function<void(std::string_view)>& f);

 private:
  struct List {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> chunks;  // offset, bytes in the file
    std::string tail;  // not yet written: each text its 4-byte length, then its bytes
    std::uint64_t size = 0;
  };
  void write_tail(List& l);

  std::string what_;
  std::FILE* file_ = nullptr;
  std::uint64_t end_ = 0;  // the file's size
  bool at_end_ = true;     // the stream's position is end_ (no read since the last write)
  std::vector<List> lists_;
};

}  // namespace kepoch
