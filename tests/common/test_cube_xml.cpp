#include <catch2/catch.hpp>

#include <string>

#include "common/cube/xml.hpp"
#include "common/error.hpp"

using namespace hindsight::cube;

TEST_CASE("cube xml: escaping produces only the five predefined entities") {
    CHECK(xml::escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f");
    CHECK(xml::escape("tab\there\nnewline") == "tab\there\nnewline");
    CHECK(xml::escape(std::string("bell\x07") + "nul" + std::string(1, '\0')) == "bell?nul?");
    CHECK(xml::escape("ümlaut") == "ümlaut");  // UTF-8 passes through
    // anchor.xml declares UTF-8: a Latin-1 name and U+FFFF must not make it
    // unreadable.
    CHECK(xml::escape("\xFC" "ber&\xEF\xBF\xBF") == "\xEF\xBF\xBD" "ber&amp;\xEF\xBF\xBD");
}

TEST_CASE("cube xml: the writer's output parses back to the same text") {
    xml::Writer w;
    w.open("root", {{"name", "x < y & \"z\""}});
    w.leaf("leaf", "operator<<(std::ostream&, 'c')");
    w.empty("attr", {{"key", "k"}, {"value", "v>"}});
    w.close();
    const std::string text = w.finish();
    CHECK(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));

    const auto doc = xml::Document::parse(text);
    const auto& root = doc.root();
    CHECK(root.name == "root");
    REQUIRE(root.attribute("name") != nullptr);
    CHECK(*root.attribute("name") == "x < y & \"z\"");
    REQUIRE(root.children.size() == 2);
    CHECK(doc.element(root.children[0]).text == "operator<<(std::ostream&, 'c')");
    CHECK(*doc.element(root.children[1]).attribute("value") == "v>");
    CHECK(doc.element(root.children[1]).line == 4);
}

TEST_CASE("cube xml: references, CDATA and comments are understood") {
    const auto doc = xml::Document::parse(
        "<?xml version='1.0'?><!-- c --><a>x&#65;&#x42;<![CDATA[<raw>&]]><!-- inner --></a>\n<!-- after -->");
    CHECK(doc.root().text == "xAB<raw>&");
    CHECK(xml::Document::parse("<a>&#x20AC;</a>").root().text == "\xe2\x82\xac");
}

TEST_CASE("cube xml: the attributes of an expression may be bare words, as CubeLib writes them") {
    const auto doc = xml::Document::parse("<metric><cubepl rowwise=false>a</cubepl>"
                                          "<cubeplaggr cubeplaggrtype=plus\n>b</cubeplaggr><cubepl rowwise='true'/></metric>");
    REQUIRE(doc.root().children.size() == 3);
    CHECK(*doc.element(doc.root().children[0]).attribute("rowwise") == "false");
    CHECK(doc.element(doc.root().children[0]).text == "a");
    CHECK(*doc.element(doc.root().children[1]).attribute("cubeplaggrtype") == "plus");
    CHECK(*doc.element(doc.root().children[2]).attribute("rowwise") == "true");
    // Elsewhere, and without a word, a value needs its quotes.
    CHECK_THROWS_WITH(xml::Document::parse("<metric type=EXCLUSIVE/>"), Catch::Contains("must be quoted"));
    CHECK_THROWS_WITH(xml::Document::parse("<cubepl rowwise=>x</cubepl>"), Catch::Contains("must be quoted"));
}

TEST_CASE("cube xml: malformed documents are rejected with the line") {
    const char* bad[] = {
        "",                              // no root
        "<a>",                           // not closed
        "<a></b>",                       // mismatched
        "<a x=1/>",                      // unquoted attribute
        "<a x='1' x='2'/>",              // repeated attribute
        "<a x='1'y='2'/>",               // no blank between attributes
        "<a>&bogus;</a>",                // unknown entity
        "<a>&#xZZ;</a>",                 // malformed reference
        "<a>&amp</a>",                   // unterminated reference
        "<a/><b/>",                      // two roots
        "<a><!-- open </a>",             // unterminated comment
        "<a><![CDATA[x</a>",             // unterminated CDATA
        "<!DOCTYPE a><a/>",              // declarations are not ours
        "<a x='<'/>",                    // '<' in attribute
        "<a\n\n><b></a>",                // mismatch on line 3
    };
    for (const char* text : bad) {
        INFO(text);
        CHECK_THROWS_AS(xml::Document::parse(text), hindsight::Error);
    }
    CHECK_THROWS_WITH(xml::Document::parse("<a\n\n><b></a>"), Catch::Contains("line 3"));
}

TEST_CASE("cube xml: very deep nesting neither recurses nor crashes") {
    const int depth = 200000;
    std::string text;
    for (int i = 0; i < depth; ++i) text += "<c>";
    for (int i = 0; i < depth; ++i) text += "</c>";
    const auto doc = xml::Document::parse(text);
    CHECK(doc.size() == static_cast<std::size_t>(depth));
    CHECK(doc.element(depth - 2).children.size() == 1);
}
