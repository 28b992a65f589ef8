// A flat stream of trivially copyable values and length-prefixed sequences:
// how replayed messages carry the analyses' data (replay/payload.hpp) and
// how the collector moves each rank's definitions to rank 0. Writer and
// reader run in the same program on the same kind of machine, so values
// travel in the host's byte order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace hindsight {

class ByteWriter {
public:
    ByteWriter() = default;
    // A moved-from writer is empty, without a buffer.
    ByteWriter(ByteWriter&& other) noexcept
        : data_(std::move(other.data_)),
          size_(std::exchange(other.size_, 0)),
          capacity_(std::exchange(other.capacity_, 0)) {}
    ByteWriter& operator=(ByteWriter&& other) noexcept {
        data_ = std::move(other.data_);
        size_ = std::exchange(other.size_, 0);
        capacity_ = std::exchange(other.capacity_, 0);
        return *this;
    }

    template <typename T>
        requires std::is_trivially_copyable_v<T>
    void put(const T& value) {
        std::memcpy(extend(sizeof(T)), &value, sizeof(T));
    }
    // A length-prefixed sequence.
    template <typename T>
        requires std::is_trivially_copyable_v<T>
    void put_span(std::span<const T> values) {
        put<std::uint64_t>(values.size());
        if (!values.empty()) std::memcpy(extend(values.size_bytes()), values.data(), values.size_bytes());
    }
    void put_string(std::string_view text) { put_span(std::span<const char>(text.data(), text.size())); }
    // Room for `count` more bytes at the end, for the caller to fill.
    // Replay payloads are written millions of times, a few bytes at once:
    // unlike a vector's resize() this neither clears the bytes first nor
    // leaves the inlined path unless the buffer must grow.
    std::byte* extend(std::size_t count) {
        if (capacity_ - size_ < count) [[unlikely]]
            grow(count);
        std::byte* at = data_.get() + size_;
        size_ += count;
        return at;
    }

    std::size_t size() const { return size_; }
    std::span<const std::byte> bytes() const { return {data_.get(), size_}; }
    std::span<std::byte> bytes() { return {data_.get(), size_}; }
    // The bytes written so far; the writer is empty afterwards (and keeps
    // its buffer).
    std::vector<std::byte> take() {
        std::vector<std::byte> out(data_.get(), data_.get() + size_);
        size_ = 0;
        return out;
    }
    void clear() { size_ = 0; }

private:
    void grow(std::size_t count) {
        if (count > std::numeric_limits<std::size_t>::max() / 2 - size_) throw std::length_error("ByteWriter");
        const std::size_t capacity = std::max({std::size_t{64}, 2 * capacity_, size_ + count});
        auto data = std::make_unique_for_overwrite<std::byte[]>(capacity);
        if (size_ != 0) std::memcpy(data.get(), data_.get(), size_);
        data_ = std::move(data);
        capacity_ = capacity;
    }

    std::unique_ptr<std::byte[]> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
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
