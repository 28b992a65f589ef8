// Fixed-size records over an Exchange (exchange.hpp): lists of records per
// rank in one all-to-all, and the request/answer pattern of two, in which
// every rank answers what the others asked of it in the order they asked.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "common/error.hpp"
#include "replay/exchange.hpp"

namespace hindsight::replay {

// Records by rank: what goes to (or came from) each rank.
template <typename Record>
using RecordLists = std::vector<std::vector<Record>>;

// Sends outgoing[r] to rank r; returns what each rank sent to this one.
// `where` names the input in the error a block of a foreign size raises.
template <typename Record>
RecordLists<Record> exchange_records(Exchange& exchange, const RecordLists<Record>& outgoing,
                                     const std::string& where) {
    static_assert(std::is_trivially_copyable_v<Record>);
    ByteBlocks blocks(outgoing.size());
    for (std::size_t r = 0; r < outgoing.size(); ++r) {
        blocks[r].resize(outgoing[r].size() * sizeof(Record));
        if (!outgoing[r].empty()) std::memcpy(blocks[r].data(), outgoing[r].data(), blocks[r].size());
    }
    const ByteBlocks incoming = exchange.all_to_all(blocks);
    RecordLists<Record> records(incoming.size());
    for (std::size_t r = 0; r < incoming.size(); ++r) {
        if (incoming[r].size() % sizeof(Record) != 0)
            throw Error(where, "rank " + std::to_string(r) + " sent a block of " +
                                   std::to_string(incoming[r].size()) + " bytes, not whole records");
        records[r].resize(incoming[r].size() / sizeof(Record));
        if (!records[r].empty()) std::memcpy(records[r].data(), incoming[r].data(), incoming[r].size());
    }
    return records;
}

// Asks requests[r] of rank r; each rank answers every request it got with
// answer(asking rank, request). Returns the answers by rank, in the order
// of the requests.
template <typename Answer, typename Request, typename Respond>
RecordLists<Answer> ask_ranks(Exchange& exchange, const RecordLists<Request>& requests, Respond&& answer,
                              const std::string& where) {
    const RecordLists<Request> asked = exchange_records(exchange, requests, where);
    RecordLists<Answer> answers(asked.size());
    for (std::size_t r = 0; r < asked.size(); ++r) {
        answers[r].reserve(asked[r].size());
        for (const Request& request : asked[r]) answers[r].push_back(answer(static_cast<int>(r), request));
    }
    RecordLists<Answer> replies = exchange_records(exchange, answers, where);
    for (std::size_t r = 0; r < requests.size(); ++r)
        if (r >= replies.size() || replies[r].size() != requests[r].size())
            throw Error(where, "rank " + std::to_string(r) + " answered " +
                                   std::to_string(r < replies.size() ? replies[r].size() : 0) + " of " +
                                   std::to_string(requests[r].size()) + " requests");
    return replies;
}

}  // namespace hindsight::replay
