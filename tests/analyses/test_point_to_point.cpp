// Point-to-point wait states: Late Sender (blocking and via MPI_Wait*),
// Late Sender in wrong order, Late Receiver, their counts, and the message
// counts and bytes. Every expected value is derived from the scenario's
// timestamps in the comment next to it (1 tick = 1 ns).
#include <catch2/catch.hpp>

#include "tests/analyses/analysis_harness.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

TEST_CASE("late sender: blocking receive posted before the send", "[p2p][late-sender]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(50, 60, 1, 7, 1024).leave(100);
    t.rank(1).enter(0, "main").recv(20, 70, 0, 7, 1024).leave(100);
    const AnalysisResults r(t);
    // The receiver waited from its entry (20) until the send began (50).
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Recv") == Approx(ns(50 - 20)));
    CHECK(r.own(Metric::MpiPoint2Point, 1, "main/MPI_Recv") == Approx(ns(70 - 20 - (50 - 20))));
    CHECK(r.total(Metric::MpiLateSender, 0) == 0.0);
    CHECK(r.own(Metric::MpiClsCount, 1, "main/MPI_Recv") == 1.0);
    CHECK(r.own(Metric::CommsRecv, 1, "main/MPI_Recv") == 0.0);  // 1 receive, 1 of them late
    CHECK(r.own(Metric::MpiSlsCount, 1, "main/MPI_Recv") == 0.0);
    // The send ran from 50 to 60, the receive had begun at 20: no Late Receiver.
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
    CHECK(r.findings(1).clock_violations.point_to_point == 0);
}

TEST_CASE("late sender: no wait when the send came first", "[p2p][late-sender]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(10, 15, 1, 7, 8).leave(100);
    t.rank(1).enter(0, "main").recv(20, 30, 0, 7, 8).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateSender, 1) == 0.0);
    CHECK(r.own(Metric::MpiPoint2Point, 1, "main/MPI_Recv") == Approx(ns(30 - 20)));
    CHECK(r.own(Metric::CommsRecv, 1, "main/MPI_Recv") == 1.0);
}

TEST_CASE("late sender: clamped to the receive when clocks disagree", "[p2p][late-sender]") {
    TraceBuilder t(2);
    // The send seems to begin (80) after the receive ended (70).
    t.rank(0).enter(0, "main").send(80, 90, 1, 7, 8).leave(100);
    t.rank(1).enter(0, "main").recv(20, 70, 0, 7, 8).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Recv") == Approx(ns(70 - 20)));
    CHECK(r.own(Metric::MpiPoint2Point, 1, "main/MPI_Recv") == Approx(0.0).margin(1e-15));
    // Received at 70, sent at 80.
    CHECK(r.findings(1).clock_violations.point_to_point == 1);
}

TEST_CASE("late sender: MPI_Wait completing an MPI_Irecv", "[p2p][late-sender]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(50, 60, 1, 3, 64).leave(100);
    const auto req = t.rank(1).enter(0, "main").irecv(5, 6, 0, 3, 64);
    t.rank(1).wait(20, 70, req).leave(100);
    const AnalysisResults r(t);
    // The wait began at 20, the send at 50.
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Wait") == Approx(ns(50 - 20)));
    CHECK(r.own(Metric::MpiPoint2Point, 1, "main/MPI_Wait") == Approx(ns(70 - 20 - (50 - 20))));
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Irecv") == 0.0);
    CHECK(r.own(Metric::MpiClsCount, 1, "main/MPI_Wait") == 1.0);
}

TEST_CASE("late sender: MPI_Waitall counts the latest sender only", "[p2p][late-sender]") {
    TraceBuilder t(3);
    t.rank(0).enter(0, "main").send(30, 35, 2, 1, 8).leave(100);
    t.rank(1).enter(0, "main").send(50, 55, 2, 1, 8).leave(100);
    auto& r2 = t.rank(2).enter(0, "main");
    const auto a = r2.irecv(1, 2, 0, 1, 8);
    const auto b = r2.irecv(3, 4, 1, 1, 8);
    r2.waitall(20, 60, {a, b}).leave(100);
    const AnalysisResults r(t);
    // Waits of 30 - 20 and 50 - 20: the longer one counts, once.
    CHECK(r.own(Metric::MpiLateSender, 2, "main/MPI_Waitall") == Approx(ns(50 - 20)));
    CHECK(r.own(Metric::MpiClsCount, 2, "main/MPI_Waitall") == 1.0);
    CHECK(r.own(Metric::CommsRecv, 2, "main/MPI_Waitall") == 2.0 - 1.0);
}

TEST_CASE("late sender: MPI_Test never waits", "[p2p][late-sender]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(50, 60, 1, 3, 8).leave(100);
    const auto req = t.rank(1).enter(0, "main").irecv(5, 6, 0, 3, 8);
    t.rank(1).test(20, 70, req, true).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateSender, 1) == 0.0);
    CHECK(r.own(Metric::CommsRecv, 1, "main/MPI_Test") == 1.0);
}

TEST_CASE("late sender: zero-byte messages are synchronizations", "[p2p][late-sender][counts]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(50, 60, 1, 7, 0).leave(100);
    t.rank(1).enter(0, "main").recv(20, 70, 0, 7, 0).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::SyncsSend, 0, "main/MPI_Send") == 1.0);
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Send") == 0.0);
    CHECK(r.own(Metric::BytesSent, 0, "main/MPI_Send") == 0.0);
    CHECK(r.own(Metric::MpiSlsCount, 1, "main/MPI_Recv") == 1.0);
    CHECK(r.own(Metric::SyncsRecv, 1, "main/MPI_Recv") == 1.0 - 1.0);
    CHECK(r.own(Metric::MpiClsCount, 1, "main/MPI_Recv") == 0.0);
}

TEST_CASE("counts and bytes of messages with data", "[p2p][counts]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(10, 12, 1, 1, 100).send(20, 22, 1, 2, 50).leave(100);
    t.rank(1).enter(0, "main").recv(30, 32, 0, 1, 100).recv(40, 42, 0, 2, 50).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Send") == 2.0);
    CHECK(r.own(Metric::BytesSent, 0, "main/MPI_Send") == 100.0 + 50.0);
    CHECK(r.own(Metric::CommsRecv, 1, "main/MPI_Recv") == 2.0);
    CHECK(r.own(Metric::BytesRcvd, 1, "main/MPI_Recv") == 100.0 + 50.0);
    CHECK(r.total(Metric::SyncsSend, 0) == 0.0);
    CHECK(r.total(Metric::BytesRcvd, 0) == 0.0);
}

TEST_CASE("wrong order: a late message from a different source", "[p2p][wrong-order]") {
    TraceBuilder t(3);
    // Rank 1 sends early (10), rank 0 late (50); rank 2 receives rank 0's
    // message first (in "first") and waits for it.
    t.rank(0).enter(0, "main").send(50, 55, 2, 1, 8).leave(100);
    t.rank(1).enter(0, "main").send(10, 12, 2, 1, 8).leave(100);
    t.rank(2).enter(0, "main").enter(15, "first").recv(20, 60, 0, 1, 8).leave(61)
        .recv(62, 70, 1, 1, 8).leave(100);
    const AnalysisResults r(t);
    // Late Sender of 50 - 20; the message received next was sent earlier
    // (10 < 50), so all of it is wrong order, from a different source.
    CHECK(r.own(Metric::MpiLswoDifferent, 2, "main/first/MPI_Recv") == Approx(ns(50 - 20)));
    CHECK(r.own(Metric::MpiLswoSame, 2, "main/first/MPI_Recv") == 0.0);
    CHECK(r.own(Metric::MpiLateSender, 2, "main/first/MPI_Recv") == Approx(0.0).margin(1e-15));
    CHECK(r.own(Metric::MpiLateSenderWo, 2, "main/first/MPI_Recv") == 0.0);
    CHECK(r.with_children(Metric::MpiLateSender, 2, "main/first/MPI_Recv") == Approx(ns(50 - 20)));
    CHECK(r.own(Metric::MpiClswoCount, 2, "main/first/MPI_Recv") == 1.0);
    CHECK(r.own(Metric::MpiClsCount, 2, "main/first/MPI_Recv") == 1.0 - 1.0);
    // The second receive found its message waiting.
    CHECK(r.with_children(Metric::MpiLateSender, 2, "main/MPI_Recv") == 0.0);
}

TEST_CASE("wrong order: two messages from the same source", "[p2p][wrong-order]") {
    TraceBuilder t(2);
    // Rank 0 sends tag 2 (at 10) before tag 1 (at 50); rank 1 receives
    // tag 1 first and waits for it.
    t.rank(0).enter(0, "main").send(10, 12, 1, 2, 0).send(50, 55, 1, 1, 0).leave(100);
    t.rank(1).enter(0, "main").enter(15, "first").recv(20, 60, 0, 1, 0).leave(61)
        .recv(62, 65, 0, 2, 0).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiLswoSame, 1, "main/first/MPI_Recv") == Approx(ns(50 - 20)));
    CHECK(r.own(Metric::MpiLswoDifferent, 1, "main/first/MPI_Recv") == 0.0);
    // Zero-byte messages: the synchronization counts.
    CHECK(r.own(Metric::MpiSlswoCount, 1, "main/first/MPI_Recv") == 1.0);
    CHECK(r.own(Metric::MpiSlsCount, 1, "main/first/MPI_Recv") == 1.0 - 1.0);
    CHECK(r.own(Metric::SyncsRecv, 1, "main/first/MPI_Recv") == 1.0 - 1.0);
}

TEST_CASE("wrong order: messages received in the order sent are no wrong order",
          "[p2p][wrong-order]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(30, 35, 1, 1, 8).send(40, 45, 1, 2, 8).leave(100);
    t.rank(1).enter(0, "main").recv(20, 36, 0, 1, 8).recv(37, 46, 0, 2, 8).leave(100);
    const AnalysisResults r(t);
    // Two Late Senders (30 - 20 and 40 - 37), both in order.
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Recv") == Approx(ns((30 - 20) + (40 - 37))));
    CHECK(r.with_children(Metric::MpiLateSenderWo, 1, "main/MPI_Recv") == 0.0);
    CHECK(r.own(Metric::MpiClsCount, 1, "main/MPI_Recv") == 2.0);
}

TEST_CASE("late receiver: a blocking send waits for the receive", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // The send runs 10..60; the receive is posted at 40.
    t.rank(0).enter(0, "main").send(10, 60, 1, 7, 4096).leave(100);
    t.rank(1).enter(0, "main").recv(40, 62, 0, 7, 4096).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiLateReceiver, 0, "main/MPI_Send") == Approx(ns(40 - 10)));
    CHECK(r.own(Metric::MpiPoint2Point, 0, "main/MPI_Send") == Approx(ns(60 - 10 - (40 - 10))));
    CHECK(r.own(Metric::MpiClrCount, 0, "main/MPI_Send") == 1.0);
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Send") == 1.0 - 1.0);
    CHECK(r.total(Metric::MpiLateReceiver, 1) == 0.0);
    CHECK(r.total(Metric::MpiLateSender, 1) == 0.0);
}

TEST_CASE("late receiver: zero-byte and synchronous sends", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(10, 60, 1, 7, 0, t.world(), "MPI_Ssend").leave(100);
    t.rank(1).enter(0, "main").recv(25, 61, 0, 7, 0).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiLateReceiver, 0, "main/MPI_Ssend") == Approx(ns(25 - 10)));
    CHECK(r.own(Metric::MpiSlrCount, 0, "main/MPI_Ssend") == 1.0);
    CHECK(r.own(Metric::SyncsSend, 0, "main/MPI_Ssend") == 1.0 - 1.0);
}

TEST_CASE("late receiver: no wait when the send ended before the receive", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // An eager send: over at 15, before the receive is posted at 40.
    t.rank(0).enter(0, "main").send(10, 15, 1, 7, 8).leave(100);
    t.rank(1).enter(0, "main").recv(40, 45, 0, 7, 8).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Send") == 1.0);
}

TEST_CASE("late receiver: non-blocking sends are not examined", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    const auto req = t.rank(0).enter(0, "main").isend(10, 12, 1, 7, 8);
    t.rank(0).wait(12, 60, req).leave(100);
    t.rank(1).enter(0, "main").recv(40, 45, 0, 7, 8).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
}

TEST_CASE("late receiver and late sender: send calls of seconds", "[p2p][late-receiver][late-sender]") {
    TraceBuilder t(2);
    // The first send call lasts 3 s (beyond the short offsets a payload
    // uses, 2^31 ticks); its receive is posted 2.5 s after it began. The
    // second is sent at 5.5 s to a receive waiting since 3.1 s.
    t.rank(0).enter(0, "main").send(10, 3'000'000'010, 1, 7, 8).send(5'500'000'000, 5'500'000'010, 1, 7, 8).leave(6'000'000'000);
    t.rank(1).enter(0, "main").recv(2'500'000'000, 3'000'000'020, 0, 7, 8).recv(3'100'000'000, 5'500'000'020, 0, 7, 8).leave(6'000'000'000);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiLateReceiver, 0, "main/MPI_Send") == Approx(ns(2'500'000'000 - 10)));
    CHECK(r.own(Metric::MpiClrCount, 0, "main/MPI_Send") == 1.0);
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Recv") == Approx(ns(5'500'000'000 - 3'100'000'000)));
    CHECK(r.own(Metric::MpiClsCount, 1, "main/MPI_Recv") == 1.0);
}

TEST_CASE("sendrecv: the receive half has Late Senders, the send half no Late Receiver", "[p2p]") {
    TraceBuilder t(2);
    // A ring of two: each sends to and receives from the other.
    t.rank(0).enter(0, "main").sendrecv(10, 50, 1, 1, 8, 1, 2, 8).leave(100);
    t.rank(1).enter(0, "main").sendrecv(30, 52, 0, 2, 8, 0, 1, 8).leave(100);
    const AnalysisResults r(t);
    // Rank 0 entered at 10 and waited for rank 1's send at 30.
    CHECK(r.own(Metric::MpiLateSender, 0, "main/MPI_Sendrecv") == Approx(ns(30 - 10)));
    CHECK(r.total(Metric::MpiLateSender, 1) == 0.0);
    // Rank 0's send (10..50) outlasted rank 1's entry (30), but an
    // MPI_Sendrecv is never a Late Receiver (as in Scalasca).
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
    CHECK(r.total(Metric::MpiClrCount, 0) == 0.0);
    CHECK(r.own(Metric::MpiPoint2Point, 0, "main/MPI_Sendrecv") == Approx(ns(50 - 10 - (30 - 10))));
}

TEST_CASE("sendrecv: no Late Receiver even where a blocking send would have one", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // Rank 0's MPI_Sendrecv (10..50) sends to rank 1, whose MPI_Recv is
    // posted at 30, while the send still runs: an MPI_Send there would wait
    // 30 - 10. Rank 1 answers with an MPI_Send at 40, for which rank 0's
    // receive half waited since 10.
    t.rank(0).enter(0, "main").sendrecv(10, 50, 1, 1, 8, 1, 2, 8).leave(100);
    t.rank(1).enter(0, "main").recv(30, 35, 0, 1, 8).send(40, 45, 0, 2, 8).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
    CHECK(r.own(Metric::MpiLateSender, 0, "main/MPI_Sendrecv") == Approx(ns(40 - 10)));
    CHECK(r.own(Metric::MpiClsCount, 0, "main/MPI_Sendrecv") == 1.0);
    CHECK(r.total(Metric::MpiLateSender, 1) == 0.0);
    CHECK(r.findings(1).clock_violations.point_to_point == 0);
}

TEST_CASE("sendrecv_replace: no Late Receiver either", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // As above, with MPI_Sendrecv_replace (send at its entry, receive at its
    // exit, like the builder's sendrecv).
    t.rank(0).enter(0, "main").enter(10, "MPI_Sendrecv_replace").send_event(10, 1, 1, 8).recv_event(50, 1, 2, 8)
        .leave(50).leave(100);
    t.rank(1).enter(0, "main").recv(30, 35, 0, 1, 8).send(40, 45, 0, 2, 8).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
    CHECK(r.own(Metric::MpiLateSender, 0, "main/MPI_Sendrecv_replace") == Approx(ns(40 - 10)));
}

TEST_CASE("late receiver: a receive posted by MPI_Irecv after the send began", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // The send runs 10..60; rank 1 posts its receive with MPI_Irecv at 40
    // and completes it in an MPI_Wait (70..75) that begins only after the
    // send ended: the sender waited from its entry until the receive was
    // posted.
    t.rank(0).enter(0, "main").send(10, 60, 1, 7, 4096).leave(100);
    const auto req = t.rank(1).enter(0, "main").irecv(40, 42, 0, 7, 4096);
    t.rank(1).wait(70, 75, req).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiLateReceiver, 0, "main/MPI_Send") == Approx(ns(40 - 10)));
    CHECK(r.own(Metric::MpiClrCount, 0, "main/MPI_Send") == 1.0);
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Send") == 1.0 - 1.0);
    CHECK(r.own(Metric::MpiPoint2Point, 0, "main/MPI_Send") == Approx(ns(60 - 10 - (40 - 10))));
    // The message was there when the MPI_Wait began: no Late Sender.
    CHECK(r.total(Metric::MpiLateSender, 1) == 0.0);
    CHECK(r.total(Metric::MpiLateReceiver, 1) == 0.0);
}

TEST_CASE("late receiver: none when MPI_Irecv posted the receive before the send", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // Posted at 5, before the send (10..60) began; the MPI_Wait (20..62)
    // began after the send, so nobody waited.
    t.rank(0).enter(0, "main").send(10, 60, 1, 7, 4096).leave(100);
    const auto req = t.rank(1).enter(0, "main").irecv(5, 6, 0, 7, 4096);
    t.rank(1).wait(20, 62, req).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Send") == 1.0);
    CHECK(r.total(Metric::MpiLateSender, 1) == 0.0);
}

TEST_CASE("late receiver: none when MPI_Irecv posted the receive after the send ended", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // An eager send over at 15, the receive posted at 40.
    t.rank(0).enter(0, "main").send(10, 15, 1, 7, 8).leave(100);
    const auto req = t.rank(1).enter(0, "main").irecv(40, 41, 0, 7, 8);
    t.rank(1).wait(50, 52, req).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
}

TEST_CASE("late receiver: MPI_Ssend waiting for a receive posted by MPI_Irecv", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // The synchronous send runs 10..60, the receive is posted at 25 and
    // completed by MPI_Waitall (30..61).
    t.rank(0).enter(0, "main").send(10, 60, 1, 7, 0, t.world(), "MPI_Ssend").leave(100);
    const auto req = t.rank(1).enter(0, "main").irecv(25, 26, 0, 7, 0);
    t.rank(1).waitall(30, 61, {req}).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiLateReceiver, 0, "main/MPI_Ssend") == Approx(ns(25 - 10)));
    CHECK(r.own(Metric::MpiSlrCount, 0, "main/MPI_Ssend") == 1.0);
}

TEST_CASE("late receiver: never at buffered or ready sends", "[p2p][late-receiver]") {
    TraceBuilder t(2);
    // Both send calls outlast the entry of their receive (40 and 80), which
    // would make an MPI_Send or MPI_Ssend a Late Receiver.
    t.rank(0).enter(0, "main").send(10, 60, 1, 7, 8, t.world(), "MPI_Bsend")
        .send(61, 90, 1, 8, 8, t.world(), "MPI_Rsend").leave(100);
    t.rank(1).enter(0, "main").recv(40, 62, 0, 7, 8).recv(80, 91, 0, 8, 8).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiLateReceiver, 0) == 0.0);
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Bsend") == 1.0);
    CHECK(r.own(Metric::MpiClrCount, 0, "main/MPI_Bsend") == 0.0);
    CHECK(r.own(Metric::MpiPoint2Point, 0, "main/MPI_Bsend") == Approx(ns(60 - 10)));
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Rsend") == 1.0);
}
