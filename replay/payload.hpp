// Byte payloads that travel with a replayed message. Every analysis appends
// its own fields on the sending side and reads them back, in the same order,
// on the receiving side; the engine ships the whole payload as one message,
// so all analyses share one message per recorded message.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "common/error.hpp"

namespace hindsight::replay {

class PayloadWriter {
public:
    template <typename T>
        requires std::is_trivially_copyable_v<T>
    void put(const T& value) {
        // Not insert(): for a few bytes its generic range copy costs more
        // than the copy itself, and payloads are written millions of times.
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

    const std::vector<std::byte>& bytes() const { return bytes_; }
    std::vector<std::byte>& bytes() { return bytes_; }
    void clear() { bytes_.clear(); }

private:
    std::vector<std::byte> bytes_;
};

class PayloadReader {
public:
    explicit PayloadReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

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
        const auto n = get<std::uint64_t>();
        if (n > bytes_.size() / (sizeof(T) ? sizeof(T) : 1)) throw Error("", "replay payload is shorter than it claims");
        std::vector<T> values(n);
        const auto src = take(n * sizeof(T));
        if (n) std::memcpy(values.data(), src.data(), src.size());
        return values;
    }
    bool empty() const { return bytes_.empty(); }

private:
    std::span<const std::byte> take(std::size_t n) {
        if (n > bytes_.size()) throw Error("", "replay payload is shorter than its readers expect");
        const auto head = bytes_.first(n);
        bytes_ = bytes_.subspan(n);
        return head;
    }
    std::span<const std::byte> bytes_;
};

}  // namespace hindsight::replay
