// A CollectiveChannel that completes every operation when it is awaited,
// one operation at a time (the engines' passes that are not batched).
#pragma once

#include "replay/collective_channel.hpp"

namespace hindsight::replay {

class ImmediateChannel : public CollectiveChannel {
protected:
    virtual void allreduce_now(std::span<double> values, ReduceOp op) = 0;
    virtual RankedValue maxloc_now(double value) = 0;
    virtual RankedValue minloc_now(double value) = 0;
    virtual RankedValue scan_maxloc_now(double value) = 0;
    virtual void exscan_now(std::span<double> values, ReduceOp op) = 0;
    virtual void reduce_sum_now(std::span<double> values, int root) = 0;
    virtual void broadcast_now(std::vector<double>& values, int root) = 0;
    virtual void broadcast_fixed_now(std::span<double> values, int root) = 0;

private:
    bool start(ChannelOperation& op) final {
        using Kind = ChannelOperation::Kind;
        switch (op.kind) {
        case Kind::Allreduce: allreduce_now(op.values, op.op); break;
        case Kind::MaxLoc: op.ranked = maxloc_now(op.ranked.value); break;
        case Kind::MinLoc: op.ranked = minloc_now(op.ranked.value); break;
        case Kind::ScanMaxLoc: op.ranked = scan_maxloc_now(op.ranked.value); break;
        case Kind::Exscan: exscan_now(op.values, op.op); break;
        case Kind::ReduceSum: reduce_sum_now(op.values, op.root); break;
        case Kind::Broadcast: broadcast_now(*op.resizable, op.root); break;
        case Kind::BroadcastFixed: broadcast_fixed_now(op.values, op.root); break;
        }
        return true;
    }
};

}  // namespace hindsight::replay
