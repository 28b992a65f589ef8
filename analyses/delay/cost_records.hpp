// The records the delay analysis's rounds exchange (delay_costs.hpp), each
// with its write and its read side by side, so that both sides of the wire
// change together.
//
// A record is a head (its kind and the OperationId of the synchronization
// point it concerns on the receiving rank) and a body whose type fixes the
// kind: write_record() writes both, a reader reads the head, picks the body
// type by its kind and reads that. A body's read() reads exactly what its
// write() wrote; a record cut short throws hindsight::Error (ByteReader).
//
// Records move by the million in one pass: the bodies write from the
// sender's data in place (a profile is lent, not copied, through the
// `Profile` parameter) and carry no virtual calls.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "analyses/delay/cost_shares.hpp"
#include "analyses/delay/sync_intervals.hpp"
#include "analyses/delay/sync_point_list.hpp"
#include "common/byte_codec.hpp"
#include "common/error.hpp"

namespace hindsight::analyses::cost_records {

enum class Kind : std::uint8_t {
    Claim,                // a wait's costs will come: to its delayer
    LateReceiverProfile,  // the delayer's interval: to the waiting sender
    CollectiveInterval,   // the delayer's interval: to a waiting member
    CostsToDivide,        // a Late Sender's or one-sided epoch's wait's costs and interval: to the delayer
    IndirectAnswer,       // the part the delayer's waiting explains: back to the waiting rank
    LateReceiverAnswer,   // the division of the wait's costs: to the receiver
    CollectiveAnswer,     // the division of a member's costs: to the delayer
};

struct Head {
    Kind kind = Kind::Claim;
    OperationId operation = 0;

    bool operator==(const Head&) const = default;
    void write(ByteWriter& out) const {
        out.put(kind);
        out.put(operation);
    }
    static Head read(ByteReader& in) {
        Head head;
        head.kind = in.get<Kind>();
        head.operation = in.get<OperationId>();
        return head;
    }
};

// ---- fields that several bodies share ----------------------------------

inline void write_profile(ByteWriter& out, const SparseProfile& profile) {
    out.put_span<CallPathId>(profile.paths);
    out.put_span<double>(profile.values);
}

inline SparseProfile read_profile(ByteReader& in) {
    SparseProfile profile;
    profile.paths = in.get_vector<CallPathId>();
    profile.values = in.get_vector<double>();
    if (profile.paths.size() != profile.values.size())
        throw Error("", "delay-cost record holds a malformed profile");
    return profile;
}

// Costs by pattern are mostly zero: a mask of the non-zero ones, then those.
inline void write_costs(ByteWriter& out, const PatternCosts& costs) {
    static_assert(kCostKinds <= 16, "the mask of non-zero costs is two bytes");
    std::uint16_t mask = 0;
    for (std::size_t p = 0; p < kCostKinds; ++p)
        if (costs[p] != 0) mask = static_cast<std::uint16_t>(mask | 1u << p);
    out.put(mask);
    for (const double c : costs)
        if (c != 0) out.put<double>(c);
}

inline PatternCosts read_costs(ByteReader& in) {
    const auto mask = in.get<std::uint16_t>();
    PatternCosts costs{};
    for (std::size_t p = 0; p < kCostKinds; ++p)
        if (mask & 1u << p) costs[p] = in.get<double>();
    return costs;
}

inline void write_flag(ByteWriter& out, bool flag) { out.put<std::uint8_t>(flag ? 1 : 0); }
inline bool read_flag(ByteReader& in) { return in.get<std::uint8_t>() != 0; }

// How a waiting rank divided its costs over the delayer's interval with it
// (cost_shares.hpp), for the delayer to charge: `scales` and the excess by
// entry of the delayer's interval profile where the delays explain the
// wait, else the costs themselves.
struct CostDivision {
    bool explained = false;
    PatternCosts long_cost{};
    double short_cost = 0;
    double short_term = 0;     // CostScales::short_term
    PatternCosts long_term{};  // CostScales::long_term
    std::vector<double> excess;

    CostScales scales() const { return {short_term, long_term, explained}; }

    bool operator==(const CostDivision&) const = default;
    void write(ByteWriter& out) const {
        write_flag(out, explained);
        write_costs(out, long_cost);
        out.put<double>(short_cost);
        out.put<double>(short_term);
        write_costs(out, long_term);
        out.put_span<double>(excess);
    }
    static CostDivision read(ByteReader& in) {
        CostDivision d;
        d.explained = read_flag(in);
        d.long_cost = read_costs(in);
        d.short_cost = in.get<double>();
        d.short_term = in.get<double>();
        d.long_term = read_costs(in);
        d.excess = in.get_vector<double>();
        return d;
    }
};

// ---- the bodies ----------------------------------------------------------

// A Late Sender's receiver or a collective's waiting member tells the
// delayer that costs will come.
struct Claim {
    static constexpr Kind kind = Kind::Claim;
    bool operator==(const Claim&) const = default;
    void write(ByteWriter&) const {}
    static Claim read(ByteReader&) { return {}; }
};

// The delayer's interval with the waiting rank: its waiting and its
// processing by call path. `Profile` is SparseProfile as read, or a
// reference to the writer's own while written.
template <Kind K, typename Profile = SparseProfile>
    requires(K == Kind::LateReceiverProfile || K == Kind::CollectiveInterval)
struct DelayerInterval {
    static constexpr Kind kind = K;
    double waiting = 0;
    Profile processing;

    bool operator==(const DelayerInterval&) const = default;
    void write(ByteWriter& out) const {
        out.put<double>(waiting);
        write_profile(out, processing);
    }
    static DelayerInterval<K> read(ByteReader& in) {
        DelayerInterval<K> body;
        body.waiting = in.get<double>();
        body.processing = read_profile(in);
        return body;
    }
};
template <typename Profile = SparseProfile>
using LateReceiverProfile = DelayerInterval<Kind::LateReceiverProfile, Profile>;
template <typename Profile = SparseProfile>
using CollectiveInterval = DelayerInterval<Kind::CollectiveInterval, Profile>;

// A wait's costs and the waiting rank's interval profile, for the delayer
// to divide: a Late Sender's (to the sender) or a one-sided epoch's wait's
// (to the rank whose call ended it), by the pattern of its short-term costs.
template <typename Profile = SparseProfile>
struct CostsToDivide {
    static constexpr Kind kind = Kind::CostsToDivide;
    CostPattern pattern = CostPattern::LateSender;
    double short_cost = 0;
    PatternCosts long_cost{};
    Profile waiter;

    bool operator==(const CostsToDivide&) const = default;
    void write(ByteWriter& out) const {
        out.put(pattern);
        out.put<double>(short_cost);
        write_costs(out, long_cost);
        write_profile(out, waiter);
    }
    static CostsToDivide<> read(ByteReader& in) {
        CostsToDivide<> body;
        body.pattern = in.get<CostPattern>();
        if (static_cast<std::size_t>(body.pattern) >= kCostPatterns)
            throw Error("", "delay-cost record names an unknown pattern");
        body.short_cost = in.get<double>();
        body.long_cost = read_costs(in);
        body.waiter = read_profile(in);
        return body;
    }
};

// The part of a wait whose costs the delayer divided that the delayer's
// own waiting explains.
struct IndirectAnswer {
    static constexpr Kind kind = Kind::IndirectAnswer;
    double indirect = 0;

    bool operator==(const IndirectAnswer&) const = default;
    void write(ByteWriter& out) const { out.put<double>(indirect); }
    static IndirectAnswer read(ByteReader& in) { return {in.get<double>()}; }
};

// The sender's division of a Late Receiver wait's costs; none where the
// sender recorded no such wait.
struct LateReceiverAnswer {
    static constexpr Kind kind = Kind::LateReceiverAnswer;
    std::optional<CostDivision> division;

    bool operator==(const LateReceiverAnswer&) const = default;
    void write(ByteWriter& out) const {
        write_flag(out, division.has_value());
        if (division) division->write(out);
    }
    static LateReceiverAnswer read(ByteReader& in) {
        LateReceiverAnswer body;
        if (read_flag(in)) body.division = CostDivision::read(in);
        return body;
    }
};

// A collective's waiting member's division of its costs.
struct CollectiveAnswer {
    static constexpr Kind kind = Kind::CollectiveAnswer;
    CostDivision division;

    bool operator==(const CollectiveAnswer&) const = default;
    void write(ByteWriter& out) const { division.write(out); }
    static CollectiveAnswer read(ByteReader& in) { return {CostDivision::read(in)}; }
};

// The one way a record is written: the head its body's type implies, then
// the body.
template <typename Body>
void write_record(ByteWriter& out, OperationId operation, const Body& body) {
    Head{Body::kind, operation}.write(out);
    body.write(out);
}

}  // namespace hindsight::analyses::cost_records
