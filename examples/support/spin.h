/* Busy computation of a given wall-clock length, used wherever an example
 * needs "work" or an injected delay. It polls a monotonic clock instead of
 * sleeping: the time then shows as computation of the calling function (not
 * as idle time), and its length holds even when ranks share cores. */
#ifndef HINDSIGHT_EXAMPLES_SPIN_H
#define HINDSIGHT_EXAMPLES_SPIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns after at least `seconds` of wall-clock time; at once if <= 0. */
void example_spin(double seconds);

#ifdef __cplusplus
}
#endif

#endif
