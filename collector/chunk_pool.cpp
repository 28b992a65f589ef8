#include "collector/chunk_pool.hpp"

namespace hindsight::collect {

namespace {

void* allocate_chunk(void* pool, OTF2_FileType type, OTF2_LocationRef location, void** /*per_buffer*/,
                     uint64_t size) {
    return static_cast<ChunkPool*>(pool)->allocate(type, location, size);
}

void free_chunks(void* pool, OTF2_FileType type, OTF2_LocationRef location, void** /*per_buffer*/,
                 bool /*final*/) {
    static_cast<ChunkPool*>(pool)->free_all(type, location);
}

}  // namespace

const OTF2_MemoryCallbacks ChunkPool::callbacks = {allocate_chunk, free_chunks};

ChunkPool::ChunkPool(std::uint64_t total_bytes, std::uint64_t chunk_bytes)
    : chunk_bytes_(chunk_bytes),
      max_chunks_(static_cast<std::size_t>(total_bytes / chunk_bytes)) {}

void* ChunkPool::allocate(OTF2_FileType file_type, OTF2_LocationRef location, std::uint64_t size) {
    if (size > chunk_bytes_) return nullptr;
    const std::lock_guard lock(mutex_);
    std::byte* chunk = nullptr;
    if (!free_.empty()) {
        chunk = free_.back();
        free_.pop_back();
    } else if (storage_.size() < max_chunks_) {
        storage_.push_back(std::make_unique_for_overwrite<std::byte[]>(chunk_bytes_));  // OTF2 fills it
        chunk = storage_.back().get();
    } else {
        return nullptr;
    }
    in_use_[{static_cast<int>(file_type), location}].push_back(chunk);
    return chunk;
}

void ChunkPool::free_all(OTF2_FileType file_type, OTF2_LocationRef location) {
    const std::lock_guard lock(mutex_);
    const auto it = in_use_.find({static_cast<int>(file_type), location});
    if (it == in_use_.end()) return;
    free_.insert(free_.end(), it->second.begin(), it->second.end());
    in_use_.erase(it);
}

std::size_t ChunkPool::chunks_in_use() const {
    const std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const auto& [key, chunks] : in_use_) n += chunks.size();
    return n;
}

std::uint64_t chunk_size_for(std::uint64_t buffer_bytes) {
    constexpr std::uint64_t kLarge = std::uint64_t{1} << 20;
    constexpr std::uint64_t kSmall = std::uint64_t{256} << 10;
    return buffer_bytes >= 16 * kLarge ? kLarge : kSmall;
}

}  // namespace hindsight::collect
