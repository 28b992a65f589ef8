// A flat stream of trivially copyable values and length-prefixed sequences:
// how replayed messages carry the analyses' data (replay/payload.hpp) and
// how the collector moves each rank's definitions to rank 0. Writer and
// reader run in the same program on the same kind of machine, so values
// travel in the host's byte order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/error.hpp"

namespace hindsight {

class ByteWriter {
public:
    template <typename T>
        requires std::is_trivially_copyable_v<T>
    void put(const T& value) {
        // Not insert(): for a few bytes its generic range copy costs more
        // than the copy itself, and replay payloads are written millions of
        // times.
        const std::size_t at = bytes_.size();
        bytes_.resize(at + sizeof(T));
        std::memcpy(bytes_.data() + at, &value, sizeof(T));
    }
    // A length-prefixed sequence.
    template <typename T>
        requires std::is_trivially_copyable_v<T>
    void put_span(std::span<const T> values) {
        put<std::uint64_t>(values.size());
        const auto* p = reinterpret_cast<const std::byte*>(values.data());
        bytes_.insert(bytes_.end(), p, p + values.size_bytes());
    }
    void put_string(std::string_view text) { put_span(std::span<const char>(text.data(), text.size())); }

    const std::vector<std::byte>& bytes() const { return bytes_; }
    std::vector<std::byte>& bytes() { return bytes_; }
    // The bytes written so far; the writer is empty afterwards.
    std::vector<std::byte> take() {
        std::vector<std::byte> out = std::move(bytes_);
        bytes_.clear();
        return out;
    }
    void clear() { bytes_.clear(); }

private:
    std::vector<std::byte> bytes_;
};

// Reads what a ByteWriter wrote, in the same order. Reading past the end,
// or a length prefix longer than what is left, throws hindsight::Error:
// the bytes came from another process and may be damaged.
class ByteReader {
public:
    explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

    template <typename T>
        requires std::is_trivially_copyable_v<T>
    T get() {
        T value;
        std::memcpy(&value, take(sizeof(T)).data(), sizeof(T));
        return value;
    }
    template <typename T>
        requires std::is_trivially_copyable_v<T>
    std::vector<T> get_vector() {
        const std::size_t n = length(sizeof(T));
        std::vector<T> values(n);
        const auto source = take(n * sizeof(T));
        if (n) std::memcpy(values.data(), source.data(), source.size());
        return values;
    }
    std::string get_string() {
        const std::size_t n = length(1);
        const auto source = take(n);
        return {reinterpret_cast<const char*>(source.data()), n};
    }
    bool empty() const { return bytes_.empty(); }

private:
    // A length prefix, checked against what is left.
    std::size_t length(std::size_t element_size) {
        const auto n = get<std::uint64_t>();
        if (n > bytes_.size() / (element_size ? element_size : 1))
            throw Error("", "a byte stream is shorter than its length prefix says");
        return static_cast<std::size_t>(n);
    }
    std::span<const std::byte> take(std::size_t n) {
        if (n > bytes_.size()) throw Error("", "a byte stream is shorter than its readers expect");
        const auto head = bytes_.first(n);
        bytes_ = bytes_.subspan(n);
        return head;
    }

    std::span<const std::byte> bytes_;
};

}  // namespace hindsight
