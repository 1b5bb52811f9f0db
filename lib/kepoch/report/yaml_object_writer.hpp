#pragma once
// An object as YAML text, written member by member (object_writer.hpp): the text emit_yaml
// writes for the Value a ValueBuilder would build from the same calls (yaml_emitter.hpp),
// without building it. Used by the YAML stream; not part of the library's interface.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/report/object_writer.hpp"
#include "kepoch/report/yaml_emitter.hpp"

namespace kepoch::report::detail {

class YamlObjectWriter : public ObjectWriter {
 public:
  // Appends to `out`; the object is a block map at the start of a line (an empty one "{}"),
  // its lines after the first indented by `base_indent` more (YamlEmitter). One writer may
  // write many objects, each from begin() to end().
  explicit YamlObjectWriter(std::string& out, std::size_t base_indent = 0)
      : emitter_(out, base_indent) {}
  void begin() {
    emitter_.reset();
    pending_ = true;
  }
  void end() {
    close();
    emitter_.flush();
  }

  void null(std::string_view key) override;
  void boolean(std::string_view key, bool v) override;
  void integer(std::string_view key, std::int64_t v) override;
  void string(std::string_view key, std::string_view v) override;
  void value(std::string_view key, const Value& v) override;
  void lazy_shown(std::string_view key, const LazyMember& member, LazyTimes times) override;
  void begin_objects(std::string_view key) override;
  void begin_object() override;
  void end_object() override;
  void end_objects() override;
  void integers(const MemberNames& names, std::span<const std::int64_t> values) override;
  // A decoded record of a dump (its integers, its decode after the first `at`): its member
  // lines rendered once per run, key and place (RecordRun), so that a record is its lines
  // and values, the member's own text between them.
  void scalars_object_with(const MemberNames& names, std::span<const Scalar> values, std::size_t at,
                           std::string_view key, const LazyMember& member,
                           LazyTimes times) override;

 private:
  using MapStart = YamlEmitter::MapStart;
  // A run's member lines at one key column, rendered once; for a run that begins a map
  // (start not none), its first line is the map's (YamlEmitter::first_line). None if a name
  // is not a plain simple key (then the run is written member by member).
  struct RenderedRun {
    std::span<const std::string_view> names;
    std::size_t column = 0;
    MapStart start = MapStart::none;
    std::vector<MemberLine> lines;
  };
  // The run for `names` at the emitter's state: at the current map's key column, or when
  // `start` is not none as a new map's first members. Nullptr when it cannot be rendered.
  const RenderedRun* rendered(const MemberNames& names, MapStart start);
  const RenderedRun& render(const MemberNames& names, std::size_t column, MapStart start);

  // A record's lines for scalars_object_with: `names`' member lines at a new map's key
  // column (the first the map's first line at `start`) and the line of `key`, a member whose
  // value comes after names[at - 1]. Empty lines when a name or the key is not a plain simple
  // key or a line is too long.
  struct RecordRun {
    std::span<const std::string_view> names;
    std::size_t at = 0;
    std::string key;
    std::size_t column = 0;
    MapStart start = MapStart::none;
    std::vector<MemberLine> lines;
    std::optional<MemberLine> key_line;
  };
  const RecordRun& record_run(const MemberNames& names, std::size_t at, std::string_view key,
                              MapStart start);
  // values[from, to) of the map begun by scalars_object_with: by run.lines where it can.
  void run_members(const RecordRun& run, const MemberNames& names, std::span<const Scalar> values,
                   std::size_t from, std::size_t to);
  // The member as the call for its kind (ObjectWriter::scalars' calls).
  void scalar(std::string_view k, const Scalar& v);

  // emit_yaml writes an empty object or list in flow style, so a map or list is begun only
  // when its first member or element comes (or at its end, empty).
  void key(std::string_view k);
  // key(k) by the emitter's block calls (the map begun by them if pending) when k is a
  // plain simple key (key_line says so) and the emitter block_ready(); else false, nothing
  // written. The member's scalar may then go by block_scalar too.
  bool block_member_key(std::string_view k);
  void close();
  // The member line of `k` when the member can go as one line (YamlEmitter::scalar_member):
  // the map is begun and has members, and `k` is a plain simple key. Else nullptr.
  const MemberLine* simple_line(std::string_view k) {
    if (pending_ || !emitter_.at_next_simple_key()) return nullptr;
    return key_line(k, emitter_.key_column());
  }
  // The member line of `k` at `column`, remembered per key and column: the writers pass the
  // same few names (mostly literals) for every batch and record. The set of two slots is
  // chosen by the name's address and size and the column, and a slot taken only when the
  // name's bytes and the column match. Nullptr when `k` is not a plain simple key.
  const MemberLine* key_line(std::string_view k, std::size_t column);
  struct KeyLine {
    std::string name;
    std::size_t column = std::string::npos;  // none rendered yet
    std::optional<MemberLine> line;
  };
  void render(KeyLine& cached, std::string_view k, std::size_t column) const;
  static constexpr int kSetBits = 5;
  std::array<KeyLine, std::size_t{2} << kSetBits> key_lines_;

  YamlEmitter emitter_;
  bool pending_ = false;  // the current object's map is not begun yet
  std::string list_key_;
  std::size_t objects_ = 0;  // in the current list
  // A few runs: one per MemberNames, depth and start written (held by pointer: recent_runs_
  // points at them).
  std::vector<std::unique_ptr<RenderedRun>> runs_;
  // The runs used last, looked through before runs_ without hashing: a record's runs and its
  // batch's alternate, and eight hold them all. MemberNames are static arrays, so the same
  // address means the same names.
  struct RecentRun {
    const std::string_view* names = nullptr;
    std::size_t size = 0;
    std::size_t column = 0;
    MapStart start = MapStart::none;
    const RenderedRun* run = nullptr;
    bool same(const RecentRun& o) const {
      return names == o.names && size == o.size && column == o.column && start == o.start;
    }
  };
  std::array<RecentRun, 8> recent_runs_{};
  // scalars_object_with's runs (a record's first of a batch and the others: two), the one
  // used last first.
  std::vector<std::unique_ptr<RecordRun>> record_runs_;
};

}  // namespace kepoch::report::detail
