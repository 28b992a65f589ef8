// The MPI-IO files and file handles this process saw, as Score-P defines
// them for OTF2: a file per distinct name (IoRegularFile), a handle per
// MPI_File_open (IoHandle), naming the communicator it was opened on, so
// that a collective operation on it says whom it synchronized. Local ids
// here; MPI_Finalize unifies them (definition_unification.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <mpi.h>
#include <otf2/otf2.h>

namespace hindsight::collect {

// An I/O operation begun (IO_OPERATION_BEGIN written): what its
// completion needs. A matching id of 0 means none was begun (an unknown
// handle, or a call not recorded).
struct FileOperation {
    std::uint32_t handle = 0;
    std::uint64_t matching_id = 0;
    explicit operator bool() const { return matching_id != 0; }
};

struct IoHandleRecord {
    std::uint32_t file = 0;                  // local file id
    OTF2_CommRef comm = OTF2_UNDEFINED_COMM; // local communicator id
};

class IoRegistry {
public:
    // Local id of the file named `name`.
    std::uint32_t file(const std::string& name) {
        const auto [it, added] = file_ids_.try_emplace(name, static_cast<std::uint32_t>(files_.size()));
        if (added) files_.push_back(name);
        return it->second;
    }
    // A handle opened on the file `name` over communicator `comm` (local
    // id); returns its local id. A handle value MPI reuses after a close
    // is a new handle.
    std::uint32_t opened(MPI_File fh, const std::string& name, OTF2_CommRef comm, int amode) {
        const auto id = static_cast<std::uint32_t>(handles_.size());
        handles_.push_back({file(name), comm});
        open_[fh] = {id, amode};
        return id;
    }
    // The handle of `fh`, if this process saw it opened (not MPI_FILE_NULL,
    // nor one opened while no measurement ran).
    std::optional<std::uint32_t> handle(MPI_File fh) const {
        const auto it = open_.find(fh);
        return it == open_.end() ? std::nullopt : std::optional<std::uint32_t>(it->second.id);
    }
    // The access mode `fh` was opened with (0 for an unknown handle).
    int amode(MPI_File fh) const {
        const auto it = open_.find(fh);
        return it == open_.end() ? 0 : it->second.amode;
    }
    void closed(MPI_File fh) {
        if (const auto id = handle(fh)) split_.erase(*id);
        open_.erase(fh);
    }
    // A split collective operation (_begin ... _end) of a handle: MPI
    // allows one at a time per handle.
    void split_begun(const FileOperation& op) { split_[op.handle] = op; }
    FileOperation split_ended(std::uint32_t handle) {
        const auto it = split_.find(handle);
        if (it == split_.end()) return {};
        const FileOperation op = it->second;
        split_.erase(it);
        return op;
    }
    // The file of handle `id`.
    std::uint32_t file_of(std::uint32_t id) const { return handles_[id].file; }

    const std::vector<std::string>& files() const { return files_; }
    const std::vector<IoHandleRecord>& handles() const { return handles_; }

private:
    std::vector<std::string> files_;
    std::unordered_map<std::string, std::uint32_t> file_ids_;
    std::vector<IoHandleRecord> handles_;
    struct Open {
        std::uint32_t id;
        int amode;
    };
    std::unordered_map<MPI_File, Open> open_;
    std::unordered_map<std::uint32_t, FileOperation> split_;
};

}  // namespace hindsight::collect
