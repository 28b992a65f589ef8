#define _POSIX_C_SOURCE 200809L
#include "spin.h"

#include <time.h>

static double monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

void example_spin(double seconds)
{
    const double end = monotonic_seconds() + seconds;
    while (monotonic_seconds() < end) {
        /* keep the core busy until the deadline */
    }
}
