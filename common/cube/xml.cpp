#include "common/cube/xml.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <stdexcept>

#include "common/error.hpp"
#include "common/utf8.hpp"

namespace hindsight::cube::xml {

// --- writing ---------------------------------------------------------------

std::string escape(std::string_view raw) {
    // anchor.xml declares UTF-8: names that are not become visibly damaged
    // ones instead of a document no reader accepts.
    const std::string text = valid_utf8(raw);
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: {
                const auto u = static_cast<unsigned char>(c);
                const bool forbidden = u < 0x20 && c != '\t' && c != '\n' && c != '\r';
                out += forbidden ? '?' : c;
            }
        }
    }
    return out;
}

Writer::Writer(Declaration declaration) {
    if (declaration == Declaration::Xml) out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
}

void Writer::indent() {
    // Deep call trees would otherwise spend most of the file on blanks.
    out_.append(std::min<std::size_t>(open_.size(), 32), ' ');
}

void Writer::start_tag(std::string_view name, const Attributes& attributes) {
    indent();
    out_ += '<';
    out_ += name;
    for (const auto& [key, value] : attributes) {
        out_ += ' ';
        out_ += key;
        out_ += "=\"";
        out_ += escape(value);
        out_ += '"';
    }
}

void Writer::open(std::string_view name, const Attributes& attributes) {
    start_tag(name, attributes);
    out_ += ">\n";
    open_.emplace_back(name);
}

void Writer::close() {
    if (open_.empty()) throw std::logic_error("xml writer: close() without open()");
    const std::string name = std::move(open_.back());
    open_.pop_back();
    indent();
    out_ += "</" + name + ">\n";
}

void Writer::empty(std::string_view name, const Attributes& attributes) {
    start_tag(name, attributes);
    out_ += "/>\n";
}

void Writer::leaf(std::string_view name, std::string_view text) {
    indent();
    out_ += '<';
    out_ += name;
    out_ += '>';
    out_ += escape(text);
    out_ += "</";
    out_ += name;
    out_ += ">\n";
}

void Writer::raw_line(std::string_view markup) {
    out_ += markup;
    out_ += '\n';
}

std::string Writer::finish() {
    if (!open_.empty()) throw std::logic_error("xml writer: element <" + open_.back() + "> left open");
    return std::move(out_);
}

// --- reading ---------------------------------------------------------------

const std::string* Element::attribute(std::string_view key) const {
    for (const auto& [k, v] : attributes)
        if (k == key) return &v;
    return nullptr;
}

namespace {

// More than any CUBE element has (at most five).
constexpr std::size_t kMaxAttributes = 64;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool is_name_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '-' || c == '.' || c == ':' || u >= 0x80;
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

}  // namespace

// A single forward pass over the text with an explicit stack of open
// elements; every malformation ends in fail().
class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    Document run() {
        Document doc;
        skip_misc();
        // A document type declaration could declare entities that expand
        // exponentially or name files; CUBE files have none, so none is read.
        if (starts_with("<!")) fail("declarations are not supported (a DOCTYPE, entities)");
        if (at_end() || peek() != '<') fail("the document has no root element");
        std::vector<std::size_t> open;
        parse_start_tag(doc, open);
        while (!open.empty()) {
            if (at_end()) fail("element <" + doc.elements_[open.back()].name + "> is not closed");
            if (peek() != '<') {
                doc.elements_[open.back()].text += read_text();
            } else if (starts_with("<!--")) {
                skip_comment();
            } else if (starts_with("<![CDATA[")) {
                doc.elements_[open.back()].text += read_cdata();
            } else if (starts_with("<?")) {
                skip_processing_instruction();
            } else if (starts_with("</")) {
                parse_end_tag(doc, open);
            } else if (starts_with("<!")) {
                fail("declarations are not supported (a DOCTYPE, entities)");
            } else {
                parse_start_tag(doc, open);
            }
        }
        skip_misc();
        if (!at_end()) fail("content after the root element");
        return doc;
    }

private:
    [[noreturn]] void fail(const std::string& problem) {
        throw Error("", "line " + std::to_string(line_here()) + ": " + problem);
    }

    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }
    bool starts_with(std::string_view s) const { return text_.substr(pos_).starts_with(s); }
    // The position only moves forward, so counting newlines from where the
    // last count stopped keeps the whole parse linear.
    std::size_t line_here() {
        const std::size_t upto = std::min(pos_, text_.size());
        if (upto > counted_upto_) {
            line_ += static_cast<std::size_t>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(counted_upto_),
                                                         text_.begin() + static_cast<std::ptrdiff_t>(upto), '\n'));
            counted_upto_ = upto;
        }
        return line_;
    }

    void skip_space() {
        while (!at_end() && is_space(peek())) ++pos_;
    }

    // Whitespace, comments and processing instructions (the XML declaration
    // among them) around the root element.
    void skip_misc() {
        for (;;) {
            skip_space();
            if (starts_with("<!--")) skip_comment();
            else if (starts_with("<?")) skip_processing_instruction();
            else return;
        }
    }

    void skip_past(std::string_view terminator, const char* what) {
        const std::size_t end = text_.find(terminator, pos_);
        if (end == std::string_view::npos) fail(std::string("unterminated ") + what);
        pos_ = end + terminator.size();
    }
    void skip_comment() { skip_past("-->", "comment"); }
    void skip_processing_instruction() { skip_past("?>", "processing instruction"); }

    std::string read_cdata() {
        pos_ += 9;  // "<![CDATA["
        const std::size_t end = text_.find("]]>", pos_);
        if (end == std::string_view::npos) fail("unterminated CDATA section");
        std::string data(text_.substr(pos_, end - pos_));
        pos_ = end + 3;
        return data;
    }

    std::string read_name() {
        const std::size_t start = pos_;
        while (!at_end() && is_name_char(peek())) ++pos_;
        if (pos_ == start) fail("a name was expected");
        return std::string(text_.substr(start, pos_ - start));
    }

    // Decodes one reference starting at '&'.
    void read_reference(std::string& out) {
        const std::size_t end = text_.find(';', pos_);
        if (end == std::string_view::npos || end - pos_ > 12) fail("malformed character reference");
        const std::string_view ref = text_.substr(pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        if (ref == "amp") out += '&';
        else if (ref == "lt") out += '<';
        else if (ref == "gt") out += '>';
        else if (ref == "quot") out += '"';
        else if (ref == "apos") out += '\'';
        else if (ref.size() > 1 && ref[0] == '#') {
            const bool hex = ref[1] == 'x';
            const std::string_view digits = ref.substr(hex ? 2 : 1);
            std::uint32_t cp = 0;
            const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
            if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() || cp == 0 || cp > 0x10ffff)
                fail("malformed character reference &" + std::string(ref) + ";");
            append_utf8(out, cp);
        } else {
            fail("unknown entity &" + std::string(ref) + ";");
        }
    }

    std::string read_text() {
        std::string out;
        while (!at_end() && peek() != '<') {
            if (peek() == '&') read_reference(out);
            else out += text_[pos_++];
        }
        return out;
    }

    // CubeLib writes the attributes of an expression without quotes
    // (<cubepl rowwise=false>, <cubeplaggr cubeplaggrtype=plus>), and its
    // parser takes them only so; every other value must be quoted.
    static bool takes_bare_values(std::string_view element) { return element == "cubepl" || element == "cubeplaggr"; }

    std::string read_bare_value() {
        const std::size_t start = pos_;
        while (!at_end() && is_name_char(peek())) ++pos_;
        if (pos_ == start) fail("attribute value must be quoted");
        return std::string(text_.substr(start, pos_ - start));
    }

    std::string read_attribute_value() {
        if (at_end() || (peek() != '"' && peek() != '\'')) fail("attribute value must be quoted");
        const char quote = text_[pos_++];
        std::string out;
        for (;;) {
            if (at_end()) fail("unterminated attribute value");
            const char c = peek();
            if (c == quote) break;
            if (c == '<') fail("'<' inside an attribute value");
            if (c == '&') read_reference(out);
            else out += text_[pos_++];
        }
        ++pos_;
        return out;
    }

    void parse_start_tag(Document& doc, std::vector<std::size_t>& open) {
        Element element;
        element.line = line_here();
        ++pos_;  // '<'
        element.name = read_name();
        for (;;) {
            const std::size_t before = pos_;
            skip_space();
            if (at_end()) fail("unterminated start tag <" + element.name + ">");
            if (peek() == '>' || starts_with("/>")) break;
            if (pos_ == before) fail("attributes of <" + element.name + "> must be separated by blanks");
            std::string key = read_name();
            skip_space();
            if (at_end() || peek() != '=') fail("attribute " + key + " of <" + element.name + "> has no value");
            ++pos_;
            skip_space();
            const bool bare = takes_bare_values(element.name) && !at_end() && peek() != '"' && peek() != '\'';
            std::string value = bare ? read_bare_value() : read_attribute_value();
            // Repeats are found by a scan of the attributes before; a bound
            // on their number keeps that from growing with their square.
            if (element.attributes.size() == kMaxAttributes)
                fail("<" + element.name + "> has more than " + std::to_string(kMaxAttributes) + " attributes");
            if (element.attribute(key) != nullptr) fail("attribute " + key + " repeated in <" + element.name + ">");
            element.attributes.emplace_back(std::move(key), std::move(value));
        }
        const bool self_closing = peek() == '/';
        pos_ += self_closing ? 2 : 1;

        const std::size_t index = doc.elements_.size();
        if (!open.empty()) doc.elements_[open.back()].children.push_back(index);
        doc.elements_.push_back(std::move(element));
        if (!self_closing) open.push_back(index);
    }

    void parse_end_tag(Document& doc, std::vector<std::size_t>& open) {
        pos_ += 2;  // "</"
        const std::string name = read_name();
        skip_space();
        if (at_end() || peek() != '>') fail("malformed end tag </" + name + ">");
        ++pos_;
        const std::string& expected = doc.elements_[open.back()].name;
        if (name != expected) fail("</" + name + "> closes <" + expected + ">");
        open.pop_back();
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
    std::size_t counted_upto_ = 0;
};

Document Document::parse(std::string_view text) { return Parser(text).run(); }

}  // namespace hindsight::cube::xml
