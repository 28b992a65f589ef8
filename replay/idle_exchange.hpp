// The exchange an observer gets at a collective where no member of the
// communicator has anything to contribute (ReplayObserver::exchanges_at):
// it tells who is who, but any communication through it is a bug in the
// observer, which would otherwise wait for peers that never come.
#pragma once

#include "common/error.hpp"
#include "replay/observer.hpp"

namespace hindsight::replay {

class IdleExchange final : public CollectiveExchange {
public:
    explicit IdleExchange(const CollectiveExchange& real) : real_(&real) {}

    int size() const override { return real_->size(); }
    int rank() const override { return real_->rank(); }
    int world_rank(int r) const override { return real_->world_rank(r); }
    bool active() const override { return false; }

    void allreduce(std::span<double>, ReduceOp) override { refuse(); }
    RankedValue allreduce_maxloc(double) override { refuse(); }
    RankedValue allreduce_minloc(double) override { refuse(); }
    void exscan(std::span<double>, ReduceOp) override { refuse(); }
    void reduce_sum(std::span<double>, int) override { refuse(); }
    void broadcast(std::vector<double>&, int) override { refuse(); }
    void broadcast_fixed(std::span<double>, int) override { refuse(); }

private:
    [[noreturn]] static void refuse() {
        throw Error("", "an analysis communicates at a collective where it declared it has nothing "
                        "to exchange");
    }

    const CollectiveExchange* real_;
};

}  // namespace hindsight::replay
