// The worked example of Böhme et al., "Identifying the root causes of wait
// states in large-scale parallel applications" (TOPC 2016), Figure 3, as a
// trace. One unit of the figure = 1 s = 1000 ticks.
//
// What the text fixes, and how the timeline follows from it:
//  - B waits 3 units in R3 for A's S3; C waits 2 units in R4 for B's S4.
//  - In the interval (A, B) ending at R3, A ran f for 2 units and g for 3,
//    B ran f for 1 unit and no g: differences f = 2 - 1 = 1, g = 3.
//  - In the interval (B, C) ending at R4, C spent more time than B in f and
//    g, so B's only excess is the processing part of R3: with s = 0.25 =
//    1 / (excess + 3 units of waiting in R3), that part is 1 unit.
// All ranks leave MPI_Init at 1, where both intervals begin. To wait 3
// units for A's send at 6 (1 + 2 + 3), B enters R3 at 3: besides f (1 unit)
// it runs h (1 unit), which C runs as well, so h is no excess of B's.
//
//   A: Init 0-1 | f 1-3 | g 3-6 | S3 6-7 (to B)            | Finalize 7-9
//   B: Init 0-1 | h 1-2 | f 2-3 | R3 3-7 (waits 3-6) | S4 7-7.5 (to C) | Finalize 7.5-9
//   C: Init 0-1 | h 1-2 | f 2-3.5 | g 3.5-5 | R4 5-8 (waits 5-7)       | Finalize 8-9
//
// C enters MPI_Finalize last (at 8): the critical path runs back from there
// through R4's last unit on C, R3's last unit on B, and A from S3 back to
// the start: 1 + 1 + (3 + 2 + 1) = 8 units.
#pragma once

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline constexpr Ticks kUnit = 1000;  // ticks per unit of the figure (1 s)

inline TraceBuilder figure3_trace() {
    constexpr Ticks u = kUnit;
    TraceBuilder t(3);
    t.set_ticks_per_second(1000);
    t.rank(0).enter(0, "main").init(0, u)
        .region(u, 3 * u, "f").region(3 * u, 6 * u, "g")
        .send(6 * u, 7 * u, 1, 3, 64)
        .finalize(7 * u, 9 * u).leave(9 * u);
    t.rank(1).enter(0, "main").init(0, u)
        .region(u, 2 * u, "h").region(2 * u, 3 * u, "f")
        .recv(3 * u, 7 * u, 0, 3, 64)
        .send(7 * u, 7 * u + u / 2, 2, 4, 64)
        .finalize(7 * u + u / 2, 9 * u).leave(9 * u);
    t.rank(2).enter(0, "main").init(0, u)
        .region(u, 2 * u, "h").region(2 * u, 3 * u + u / 2, "f").region(3 * u + u / 2, 5 * u, "g")
        .recv(5 * u, 8 * u, 1, 4, 64)
        .finalize(8 * u, 9 * u).leave(9 * u);
    return t;
}

}  // namespace hindsight::testing
