/* The examples are compiled with -finstrument-functions, so that main() and
 * the functions that doc/examples.md names (work, delayed_work) become
 * regions of a trace taken with the collector. Helpers that only structure
 * the code carry EXAMPLE_NOT_A_REGION: call paths then stay exactly as
 * documented (MPI calls directly below main) and inner loops stay free of
 * instrumentation. */
#ifndef HINDSIGHT_EXAMPLES_REGIONS_H
#define HINDSIGHT_EXAMPLES_REGIONS_H

#define EXAMPLE_NOT_A_REGION __attribute__((no_instrument_function))

#endif
