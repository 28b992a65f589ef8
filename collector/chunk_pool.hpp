// The bounded memory OTF2 buffers its records in. OTF2 asks for chunks
// through its memory callbacks; when this pool has none left it answers
// "none", and OTF2 flushes the buffer to disk and frees its chunks. The
// event buffer thus never exceeds the configured size (OTF2's own file
// buffer of a few MiB comes on top), and no record is ever dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <otf2/otf2.h>

namespace hindsight::collect {

class ChunkPool {
public:
    ChunkPool(std::uint64_t total_bytes, std::uint64_t chunk_bytes);

    // A chunk for the buffer (file_type, location), or nullptr when the pool
    // is exhausted. Chunks are allocated on first use and then recycled.
    void* allocate(OTF2_FileType file_type, OTF2_LocationRef location, std::uint64_t size);
    // Returns every chunk of that buffer to the pool.
    void free_all(OTF2_FileType file_type, OTF2_LocationRef location);

    std::uint64_t chunk_bytes() const { return chunk_bytes_; }
    std::size_t chunks_in_use() const;

    static const OTF2_MemoryCallbacks callbacks;

private:
    using BufferKey = std::pair<int, OTF2_LocationRef>;
    std::uint64_t chunk_bytes_;
    std::size_t max_chunks_;
    std::vector<std::unique_ptr<std::byte[]>> storage_;
    std::vector<std::byte*> free_;
    std::map<BufferKey, std::vector<std::byte*>> in_use_;
    // OpenMP threads fill buffers of their own: a chunk (1 MiB, not an
    // event) at a time they take this lock.
    mutable std::mutex mutex_;
};

// Event chunk size for a buffer of `buffer_bytes`: 1 MiB where there is room
// for 16 of them, else OTF2's minimum of 256 KiB.
std::uint64_t chunk_size_for(std::uint64_t buffer_bytes);

}  // namespace hindsight::collect
