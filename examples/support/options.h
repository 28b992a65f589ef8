/* The command line of an example program: a table of `--name value` options,
 * each with its default already stored in the variable it fills, plus
 * `--help`. Shared by the C and the C++ examples so that all of them accept
 * and report options the same way. */
#ifndef HINDSIGHT_EXAMPLES_OPTIONS_H
#define HINDSIGHT_EXAMPLES_OPTIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum example_option_kind {
    EXAMPLE_INTEGER, /* value points to a long   */
    EXAMPLE_SECONDS, /* value points to a double */
    EXAMPLE_WORD     /* value points to a const char * */
};

struct example_option {
    const char *name; /* spelled `--name` on the command line */
    enum example_option_kind kind;
    void *value;      /* holds the default on entry, the given value on return */
    double minimum;   /* smallest accepted number (ignored for words) */
    const char *help;
};

enum example_parse_result {
    EXAMPLE_RUN,       /* options are valid: run the program */
    EXAMPLE_HELP_SHOWN,/* --help was given: exit successfully */
    EXAMPLE_BAD_USAGE  /* an error was reported: exit with EXAMPLE_USAGE_STATUS */
};

/* Exit status of a program whose command line or rank count is wrong. */
#define EXAMPLE_USAGE_STATUS 2

/* The exit status for a parse result other than EXAMPLE_RUN. */
int example_exit_status(enum example_parse_result result);

/* Parses argv against `options`. Every rank parses the same command line and
 * reaches the same verdict, so all ranks stop together; only a rank with
 * `speak` set prints the help text (stdout) or the one-line error (stderr). */
enum example_parse_result example_parse_options(int argc, char **argv, const char *summary,
                                                struct example_option *options, size_t count,
                                                int speak);

/* Prints "<program>: <message>" as one line on stderr. */
void example_error(const char *argv0, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif
