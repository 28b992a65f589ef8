// Just enough XML for anchor.xml: a writer that escapes text the way CUBE
// readers decode it, and a reader into a flat element table. The table keeps
// children as indices rather than nested objects, so neither parsing nor
// destroying a deeply nested call tree recurses.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hindsight::cube::xml {

// Text safe inside an element or a double-quoted attribute. CUBE's readers
// decode exactly the five predefined entities, so only those are produced;
// control characters that XML 1.0 forbids become '?'.
std::string escape(std::string_view text);

// Builds an indented document; every open() needs its close().
class Writer {
public:
    using Attributes = std::vector<std::pair<std::string_view, std::string>>;

    // Documents start with the XML declaration CUBE requires; fragments
    // (remapping.spec) have none.
    enum class Declaration : bool { Xml, None };
    explicit Writer(Declaration declaration = Declaration::Xml);
    void open(std::string_view name, const Attributes& attributes = {});
    void close();
    // <name attributes/>
    void empty(std::string_view name, const Attributes& attributes);
    // <name>text</name>
    void leaf(std::string_view name, std::string_view text);
    // Verbatim markup, e.g. CUBE's literal <cube version="4.4"> tag.
    void raw_line(std::string_view markup);

    // The document; throws std::logic_error if elements are still open.
    std::string finish();

private:
    void indent();
    void start_tag(std::string_view name, const Attributes& attributes);
    std::string out_;
    std::vector<std::string> open_;
};

struct Element {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attributes;
    std::string text;                   // all character data directly inside
    std::vector<std::size_t> children;  // indices into Document::elements()
    std::size_t line = 0;               // where the start tag is

    // nullptr when absent.
    const std::string* attribute(std::string_view key) const;
};

class Document {
public:
    // Throws hindsight::Error (without a file name) saying the line and the
    // problem when `text` is not well-formed.
    static Document parse(std::string_view text);

    const Element& root() const { return elements_.front(); }
    const Element& element(std::size_t index) const { return elements_[index]; }
    std::size_t size() const { return elements_.size(); }

private:
    std::vector<Element> elements_;
    friend class Parser;
};

}  // namespace hindsight::cube::xml
