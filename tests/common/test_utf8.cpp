// Names on their way into UTF-8 documents: valid text unchanged, every
// damaged byte, surrogate and noncharacter visibly replaced.
#include <catch2/catch.hpp>

#include <string>

#include "common/utf8.hpp"

using hindsight::is_valid_utf8;
using hindsight::valid_utf8;

namespace {
const std::string R = "\xEF\xBF\xBD";  // U+FFFD
}

TEST_CASE("valid UTF-8 passes unchanged", "[utf8]") {
    for (const std::string& text : {std::string("MPI_Send"), std::string(""), std::string("\xC3\xBC" "ber"),
                                   std::string("\xE2\x82\xAC"), std::string("\xF0\x9F\x98\x80"),
                                   std::string("\xEF\xBF\xBD"), std::string("tab\there")}) {
        CHECK(valid_utf8(text) == text);
        CHECK(is_valid_utf8(text));
    }
}

TEST_CASE("Latin-1 bytes become one replacement character each", "[utf8]") {
    // "über" and "façade" as Latin-1.
    CHECK(valid_utf8("\xFC" "ber") == R + "ber");
    CHECK(valid_utf8("fa\xE7" "ade") == "fa" + R + "ade");
    CHECK_FALSE(is_valid_utf8("\xFC" "ber"));
}

TEST_CASE("noncharacters and surrogates are replaced", "[utf8]") {
    CHECK(valid_utf8("a\xEF\xBF\xBE" "b") == "a" + R + "b");   // U+FFFE
    CHECK(valid_utf8("a\xEF\xBF\xBF" "b") == "a" + R + "b");   // U+FFFF
    CHECK(valid_utf8("\xEF\xB7\x90") == R);                     // U+FDD0
    CHECK(valid_utf8("\xF4\x8F\xBF\xBF") == R);                 // U+10FFFF
    // A surrogate encoded on its own: three bytes, none of which starts a
    // well-formed sequence.
    CHECK(valid_utf8("\xED\xA0\x80") == R + R + R);
}

TEST_CASE("malformed sequences are replaced byte by byte", "[utf8]") {
    CHECK(valid_utf8("\xC0\xAF") == R + R);                // overlong '/'
    CHECK(valid_utf8("\xE2\x82") == R + R);                // truncated at the end
    CHECK(valid_utf8("\xE2\x82" "x") == R + R + "x");      // truncated inside
    CHECK(valid_utf8("\x80") == R);                        // lone continuation
    CHECK(valid_utf8("\xF5\x80\x80\x80") == R + R + R + R);  // beyond U+10FFFF
}
