#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "kepoch/base/spilled_lists.hpp"

using namespace kepoch;

namespace {
std::vector<std::string> read(SpilledLists& lists, std::size_t list) {
  std::vector<std::string> out;
  lists.for_each(list, [&](std::string_view text) { out.emplace_back(text); });
  return out;
}
}  // namespace

TEST_CASE("spilled lists read back what was appended, in order, list by list",
          "[base][spilled_lists]") {
  SpilledLists lists("the test");
  const std::size_t a = lists.add_list(), b = lists.add_list(), c = lists.add_list();
  CHECK(lists.size(a) == 0);
  CHECK(read(lists, a).empty());
  // Interleaved, long enough for many chunks each (kChunk bytes), with empty and long texts.
  std::vector<std::string> want_a, want_b;
  for (int i = 0; i < 2000; ++i) {
    const std::string x = "topic-" + std::to_string(i);
    lists.append(a, x);
    want_a.push_back(x);
    if (i % 3 == 0) {
      const std::string y = i % 300 == 0 ? std::string(3 * SpilledLists::kChunk, 'y')
                                         : (i % 99 == 0 ? "" : "b-" + std::to_string(i));
      lists.append(b, y);
      want_b.push_back(y);
    }
  }
  CHECK(lists.size(a) == want_a.size());
  CHECK(read(lists, a) == want_a);
  CHECK(read(lists, b) == want_b);
  CHECK(read(lists, c).empty());
  // Appending after a read, and cleared lists start again.
  lists.append(a, "after");
  want_a.push_back("after");
  lists.clear(b);
  CHECK(lists.size(b) == 0);
  CHECK(read(lists, b).empty());
  for (int i = 0; i < 500; ++i)
    lists.append(b, "again-" + std::to_string(i));
  lists.append(c, "c");
  CHECK(read(lists, a) == want_a);
  const auto again = read(lists, b);
  REQUIRE(again.size() == 500);
  CHECK(again.front() == "again-0");
  CHECK(again.back() == "again-499");
  CHECK(read(lists, c) == std::vector<std::string>{"c"});
}
