// The channel an observer gets at a collective where no member of the
// communicator has anything to contribute (ReplayObserver::exchanges_at):
// it tells who is who, but any communication through it is a bug in the
// observer, which would otherwise wait for peers that never come.
#pragma once

#include "common/error.hpp"
#include "replay/collective_channel.hpp"

namespace hindsight::replay {

class IdleChannel final : public CollectiveChannel {
public:
    explicit IdleChannel(const CollectiveChannel& real) : real_(&real) {}

    int size() const override { return real_->size(); }
    int rank() const override { return real_->rank(); }
    int world_rank(int r) const override { return real_->world_rank(r); }
    bool active() const override { return false; }

private:
    [[noreturn]] bool start(ChannelOperation&) override {
        throw Error("", "an analysis communicates at a collective where it declared it has nothing "
                        "to exchange");
    }

    const CollectiveChannel* real_;
};

}  // namespace hindsight::replay
