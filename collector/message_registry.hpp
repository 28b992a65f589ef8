// Messages matched by MPI_Mprobe/MPI_Improbe and not yet received: the
// receive (MPI_Mrecv, MPI_Imrecv) names only the message handle, the
// events need the communicator the probe was given.
#pragma once

#include <optional>
#include <unordered_map>

#include <mpi.h>
#include <otf2/otf2.h>

namespace hindsight::collect {

class MessageRegistry {
public:
    // A probe matched `message` on the communicator with local id `comm`.
    // MPI_MESSAGE_NO_PROC (a probe of MPI_PROC_NULL) stands for no message.
    void matched(MPI_Message message, OTF2_CommRef comm) {
        if (message != MPI_MESSAGE_NO_PROC && message != MPI_MESSAGE_NULL) map_[message] = comm;
    }
    // The communicator of `message`, which is now being received and
    // forgotten; nothing for MPI_MESSAGE_NO_PROC or an unknown handle.
    std::optional<OTF2_CommRef> received(MPI_Message message) {
        const auto it = map_.find(message);
        if (it == map_.end()) return std::nullopt;
        const OTF2_CommRef comm = it->second;
        map_.erase(it);
        return comm;
    }
    std::size_t size() const { return map_.size(); }

private:
    std::unordered_map<MPI_Message, OTF2_CommRef> map_;
};

}  // namespace hindsight::collect
