// The synchronization points of the messages with an OpenMP worker thread
// on either side, which pairing matched outside the replay
// (trace::ThreadStreams::paired), for the delay analysis: as a master's
// message, such a message synchronized its two threads where either side
// waited (thread_message_waits.hpp), a receive for its sender (Late Sender)
// or a send for its receiver (Late Receiver). Each side measured only its
// own wait, so the two sides first tell each other which of their messages
// waited (partners_waited()), in one exchange.
//
// A point lies on the thread that sent or received the message and ties it
// to the partner's thread (sync_point_list.hpp says how far back its
// intervals go). It begins where the side's call began (a
// receive polled for, in the first polling call), and of that call its
// waiting is left out of the next interval (SyncPoint::prune), the rest is
// the thread's activity.
#pragma once

#include <span>
#include <vector>

#include "analyses/delay/sync_point_list.hpp"
#include "analyses/paired_message_name.hpp"
#include "analyses/thread_message_waits.hpp"
#include "analyses/thread_teams.hpp"
#include "replay/exchange.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// The wait of message `m` on this side whose costs the delay analysis
// passes on: a receive's Late Sender, a send's Late Receiver; 0 for none.
Ticks paired_wait(const trace::ThreadPairedMessage& m, const MessageWait& wait);

// By trace.threads.paired: whether the other side waited. Collective over
// the exchange's ranks; `waits` by trace.threads.paired.
std::vector<bool> partners_waited(const trace::LocalTrace& trace, std::span<const MessageWait> waits,
                                  replay::Exchange& exchange);

// The points of the messages that synchronized, on this rank's side.
std::vector<PairedPoint> paired_points(const trace::LocalTrace& trace, std::span<const MessageWait> waits,
                                       const std::vector<bool>& partner_waited);

// Each worker team's start and the fork on the master it follows, for the
// workers' intervals to go on on the master; none where no worker of the
// rank has a message or a collective operation measured outside the replay.
std::vector<TeamStart> team_starts(const trace::LocalTrace& trace, const ThreadTeams& teams);

}  // namespace hindsight::analyses
