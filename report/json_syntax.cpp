#include "report/json_syntax.hpp"

#include <cctype>
#include <stdexcept>

namespace hindsight::report {

namespace {

constexpr int kMaxDepth = 512;

struct SyntaxError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A recursive-descent reader over `text`; each read_* consumes one
// construct and returns the text of a string or number it read.
class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}

    void document() {
        value(0);
        space();
        if (at_ < text_.size()) fail("more text after the value");
    }

    // The top-level object's members named "schema" and "version".
    JsonHeader header() {
        JsonHeader found;
        space();
        if (!take('{')) return found;
        space();
        if (take('}')) return found;
        do {
            space();
            const std::string name = string();
            space();
            take(':');
            space();
            const bool is_string = peek() == '"';
            const std::size_t start = at_;
            value(1);
            const std::string_view raw = text_.substr(start, at_ - start);
            if (name == "schema" && is_string) found.schema = std::string(raw.substr(1, raw.size() - 2));
            if (name == "version" && !is_string) found.version = std::string(raw);
            space();
        } while (take(','));
        return found;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw SyntaxError("byte " + std::to_string(at_) + ": " + what);
    }
    char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
    bool take(char c) {
        if (peek() != c || at_ >= text_.size()) return false;
        ++at_;
        return true;
    }
    void expect(char c) {
        if (!take(c)) fail(std::string("expected '") + c + "'");
    }
    void space() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }
    void word(std::string_view w) {
        if (text_.substr(at_, w.size()) != w) fail("unexpected character");
        at_ += w.size();
    }
    bool digits() {
        const std::size_t start = at_;
        while (std::isdigit(static_cast<unsigned char>(peek()))) ++at_;
        return at_ > start;
    }
    void number() {
        take('-');
        if (!take('0') && !digits()) fail("expected a digit");
        if (take('.') && !digits()) fail("expected a digit after '.'");
        if ((take('e') || take('E'))) {
            if (!take('+')) take('-');
            if (!digits()) fail("expected an exponent");
        }
    }
    std::string string() {
        expect('"');
        std::string plain;
        while (true) {
            if (at_ >= text_.size()) fail("unterminated string");
            const char c = text_[at_++];
            if (c == '"') return plain;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
            if (c != '\\') {
                plain += c;
                continue;
            }
            const char escaped = peek();
            ++at_;
            if (escaped == 'u') {
                for (int i = 0; i < 4; ++i, ++at_)
                    if (!std::isxdigit(static_cast<unsigned char>(peek()))) fail("bad \\u escape");
            } else if (std::string_view("\"\\/bfnrt").find(escaped) == std::string_view::npos || escaped == '\0') {
                fail("bad escape");
            }
        }
    }
    void value(int depth) {
        if (depth > kMaxDepth) fail("nested too deeply");
        space();
        switch (peek()) {
        case '{':
            ++at_;
            space();
            if (take('}')) return;
            do {
                space();
                string();
                space();
                expect(':');
                value(depth + 1);
                space();
            } while (take(','));
            expect('}');
            return;
        case '[':
            ++at_;
            space();
            if (take(']')) return;
            do {
                value(depth + 1);
                space();
            } while (take(','));
            expect(']');
            return;
        case '"': string(); return;
        case 't': word("true"); return;
        case 'f': word("false"); return;
        case 'n': word("null"); return;
        case '\0':
            if (at_ >= text_.size()) fail("unexpected end");
            fail("unexpected character");
        default: number();
        }
    }

    std::string_view text_;
    std::size_t at_ = 0;
};

}  // namespace

std::optional<std::string> json_syntax_problem(std::string_view text) {
    try {
        Reader(text).document();
        return std::nullopt;
    } catch (const SyntaxError& e) {
        return e.what();
    }
}

JsonHeader json_header(std::string_view text) { return Reader(text).header(); }

}  // namespace hindsight::report
