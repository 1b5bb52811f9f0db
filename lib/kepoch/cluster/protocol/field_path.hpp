#pragma once
// The path of the field a codec is reading or writing, for error messages:
// "topics[2].partitions[0].leader_epoch". Names point into the static schema tables (or
// string literals), so pushing a segment never allocates once the vector has grown.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kepoch::cluster::protocol {

class FieldPath {
 public:
  void push_name(std::string_view name) { segments_.push_back({name, -1}); }
  void push_index(std::int64_t index) { segments_.push_back({{}, index}); }
  void pop() { segments_.pop_back(); }

  std::string to_string() const;

 private:
  struct Segment {
    std::string_view name;  // empty for an array index
    std::int64_t index;
  };
  std::vector<Segment> segments_;
};

// Pushes a segment for the lifetime of a scope.
class PathScope {
 public:
  PathScope(FieldPath& path, std::string_view name) : path_(path) { path_.push_name(name); }
  PathScope(FieldPath& path, std::int64_t index) : path_(path) { path_.push_index(index); }
  ~PathScope() { path_.pop(); }
  PathScope(const PathScope&) = delete;
  PathScope& operator=(const PathScope&) = delete;

 private:
  FieldPath& path_;
};

}  // namespace kepoch::cluster::protocol
