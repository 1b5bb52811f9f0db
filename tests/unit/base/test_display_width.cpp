// Display columns (a wcwidth for UTF-8): East Asian Wide and Fullwidth characters take two
// columns, combining marks none, as a terminal draws them (Unicode UAX #11).
#include <catch2/catch.hpp>

#include <string>

#include "kepoch/base/display_width.hpp"

using kepoch::code_point_width;
using kepoch::display_width;
using kepoch::prefix_by_width;
using kepoch::suffix_by_width;

TEST_CASE("code_point_width: wide, fullwidth, zero-width and narrow code points", "[base][width]") {
  CHECK(code_point_width(U'a') == 1);
  CHECK(code_point_width(U'\u00e9') == 1);      // é, precomposed
  CHECK(code_point_width(U'\u00ad') == 1);      // soft hyphen: Cf, but it shows
  CHECK(code_point_width(U'\u2026') == 1);      // the ellipsis tables end a cut value with
  CHECK(code_point_width(U'\u0301') == 0);      // combining acute accent (Mn)
  CHECK(code_point_width(U'\u20dd') == 0);      // combining enclosing circle (Me)
  CHECK(code_point_width(U'\u200b') == 0);      // zero-width space
  CHECK(code_point_width(U'\u200d') == 0);      // zero-width joiner (Cf)
  CHECK(code_point_width(U'\u1160') == 0);      // Hangul jungseong filler: joins the syllable
  CHECK(code_point_width(U'\u1100') == 2);      // Hangul choseong kiyeok (W)
  CHECK(code_point_width(U'\u3000') == 2);      // ideographic space (F)
  CHECK(code_point_width(U'\u3042') == 2);      // hiragana a
  CHECK(code_point_width(U'\u4e2d') == 2);      // 中
  CHECK(code_point_width(U'\uac00') == 2);      // Hangul syllable ga
  CHECK(code_point_width(U'\uff21') == 2);      // fullwidth A (F)
  CHECK(code_point_width(U'\uff61') == 1);      // halfwidth ideographic full stop (H)
  CHECK(code_point_width(U'\U0001f600') == 2);  // emoji (W)
  CHECK(code_point_width(U'\U00020000') == 2);  // CJK extension B
  CHECK(code_point_width(U'\U0002fffd') == 2);  // unassigned in plane 2: wide by default
  CHECK(code_point_width(U'\u0410') == 1);      // Cyrillic A
  CHECK(code_point_width(U'\U000e0001') == 0);  // language tag (Cf)
}

TEST_CASE("display_width: columns of UTF-8 text", "[base][width]") {
  CHECK(display_width("") == 0);
  CHECK(display_width("orders-0") == 8);
  CHECK(display_width("\xe6\xb3\xa8\xe6\x96\x87") == 4);   // 注文: 2 characters, 4 columns
  CHECK(display_width("cafe\xcc\x81") == 4);               // café with a combining accent
  CHECK(display_width("caf\xc3\xa9") == 4);                // café precomposed
  CHECK(display_width("\xef\xbc\xa1\xef\xbc\xa2") == 4);   // ＡＢ fullwidth
  CHECK(display_width("\xe2\x80\xa6/\xe6\xb3\xa8") == 4);  // …/注
  // Invalid UTF-8: each stray byte one column (as it shows escaped or replaced).
  CHECK(display_width("\xff\xfe") == 2);
  CHECK(display_width("\xe6\xb3") == 2);      // a cut sequence
  CHECK(display_width("\xed\xa0\x80") == 3);  // an encoded surrogate is not UTF-8
}

TEST_CASE("prefix_by_width and suffix_by_width cut whole characters by columns", "[base][width]") {
  const std::string cjk =
      "\xe6\xb3\xa8\xe6\x96\x87\xe5\x87\xa6\xe7\x90\x86";  // 注文処理: 8 columns
  CHECK(prefix_by_width(cjk, 8) == cjk);
  CHECK(prefix_by_width(cjk, 4) == "\xe6\xb3\xa8\xe6\x96\x87");
  // A wide character never straddles the cut: 5 columns hold two characters (4 columns).
  CHECK(prefix_by_width(cjk, 5) == "\xe6\xb3\xa8\xe6\x96\x87");
  CHECK(display_width(prefix_by_width(cjk, 5)) == 4);
  CHECK(prefix_by_width(cjk, 1).empty());
  CHECK(suffix_by_width(cjk, 5) == "\xe5\x87\xa6\xe7\x90\x86");
  CHECK(suffix_by_width(cjk, 3) == "\xe7\x90\x86");
  CHECK(suffix_by_width("g-" + cjk, 9) == "-" + cjk);
  // A combining mark stays with the letter before it.
  CHECK(prefix_by_width("cafe\xcc\x81s", 4) == "cafe\xcc\x81");
  CHECK(suffix_by_width("xe\xcc\x81", 1) == "e\xcc\x81");
  CHECK(suffix_by_width("ab", 0).empty());
  CHECK(prefix_by_width("abc", 10) == "abc");
}
