#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    return slash ? slash + 1 : argv0;
}

void example_error(const char *argv0, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, "%s: ", program_name(argv0));
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
    va_end(arguments);
}

int example_exit_status(enum example_parse_result result)
{
    return result == EXAMPLE_BAD_USAGE ? EXAMPLE_USAGE_STATUS : 0;
}

static const char *placeholder(enum example_option_kind kind)
{
    switch (kind) {
    case EXAMPLE_INTEGER: return "N";
    case EXAMPLE_SECONDS: return "SECONDS";
    case EXAMPLE_WORD: return "WORD";
    }
    return "";
}

static void print_help(const char *argv0, const char *summary,
                       const struct example_option *options, size_t count)
{
    printf("Usage: mpiexec -n RANKS %s [options]\n%s\n\nOptions:\n", program_name(argv0),
           summary);
    for (size_t i = 0; i < count; ++i) {
        const struct example_option *option = &options[i];
        char left[64];
        snprintf(left, sizeof left, "--%s %s", option->name, placeholder(option->kind));
        printf("  %-22s %s (default ", left, option->help);
        switch (option->kind) {
        case EXAMPLE_INTEGER: printf("%ld", *(const long *)option->value); break;
        case EXAMPLE_SECONDS: printf("%g", *(const double *)option->value); break;
        case EXAMPLE_WORD: printf("%s", *(const char *const *)option->value); break;
        }
        printf(")\n");
    }
    printf("  %-22s %s\n", "--help", "show this text and exit");
}

/* Stores `text` as the value of `option`; returns 0 or reports why not. */
static int assign(const char *argv0, const struct example_option *option, const char *text,
                  int speak)
{
    char *end = NULL;
    errno = 0;
    switch (option->kind) {
    case EXAMPLE_WORD:
        *(const char **)option->value = text;
        return 0;
    case EXAMPLE_INTEGER: {
        const long number = strtol(text, &end, 10);
        if (end == text || *end != '\0' || errno != 0) break;
        if ((double)number < option->minimum) {
            if (speak)
                example_error(argv0, "option --%s must be at least %.0f, got %ld", option->name,
                              option->minimum, number);
            return -1;
        }
        *(long *)option->value = number;
        return 0;
    }
    case EXAMPLE_SECONDS: {
        const double number = strtod(text, &end);
        if (end == text || *end != '\0' || errno != 0 || !isfinite(number)) break;
        if (number < option->minimum) {
            if (speak)
                example_error(argv0, "option --%s must be at least %g, got %g", option->name,
                              option->minimum, number);
            return -1;
        }
        *(double *)option->value = number;
        return 0;
    }
    }
    if (speak)
        example_error(argv0, "option --%s expects %s, got '%s'", option->name,
                      option->kind == EXAMPLE_INTEGER ? "an integer" : "a number of seconds",
                      text);
    return -1;
}

static struct example_option *find_option(struct example_option *options, size_t count,
                                          const char *name, size_t length)
{
    for (size_t i = 0; i < count; ++i)
        if (strlen(options[i].name) == length && strncmp(options[i].name, name, length) == 0)
            return &options[i];
    return NULL;
}

enum example_parse_result example_parse_options(int argc, char **argv, const char *summary,
                                                struct example_option *options, size_t count,
                                                int speak)
{
    for (int i = 1; i < argc; ++i) {
        const char *argument = argv[i];
        if (strcmp(argument, "--help") == 0 || strcmp(argument, "-h") == 0) {
            if (speak) print_help(argv[0], summary, options, count);
            return EXAMPLE_HELP_SHOWN;
        }
        if (strncmp(argument, "--", 2) != 0) {
            if (speak) example_error(argv[0], "unexpected argument '%s' (try --help)", argument);
            return EXAMPLE_BAD_USAGE;
        }
        /* Both `--name value` and `--name=value` are accepted. */
        const char *name = argument + 2;
        const char *equals = strchr(name, '=');
        const size_t length = equals ? (size_t)(equals - name) : strlen(name);
        struct example_option *option = find_option(options, count, name, length);
        if (option == NULL) {
            if (speak) example_error(argv[0], "unknown option '%s' (try --help)", argument);
            return EXAMPLE_BAD_USAGE;
        }
        const char *value = NULL;
        if (equals)
            value = equals + 1;
        else if (i + 1 < argc)
            value = argv[++i];
        else {
            if (speak) example_error(argv[0], "option --%s needs a value", option->name);
            return EXAMPLE_BAD_USAGE;
        }
        if (assign(argv[0], option, value, speak) != 0) return EXAMPLE_BAD_USAGE;
    }
    return EXAMPLE_RUN;
}
