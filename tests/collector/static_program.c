/* A program linked statically, into which no library can be preloaded:
 * hindsight-collect must refuse to start it. Started anyway, it creates the
 * file named by its argument. */
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc > 1) {
        FILE *marker = fopen(argv[1], "w");
        if (marker) fclose(marker);
    }
    return 0;
}
