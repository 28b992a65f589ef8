/* How every C example begins and how it ends early, so that the programs
 * hold only what is particular to them. The support library is not
 * instrumented: MPI_Init and MPI_Finalize stay directly below main() in a
 * trace. */
#ifndef HINDSIGHT_EXAMPLES_START_H
#define HINDSIGHT_EXAMPLES_START_H

#include "support/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MPI_Init, then this rank and the number of ranks of MPI_COMM_WORLD. */
void example_start(int *argc, char ***argv, int *rank, int *size);

/* Ends a program that is not to run (help shown, or a wrong command line
 * or rank count, already reported): MPI_Finalize, then the exit status. */
int example_stop(enum example_parse_result result);

#ifdef __cplusplus
}
#endif

#endif
