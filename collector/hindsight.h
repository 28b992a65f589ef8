/* Hindsight user regions: mark phases of a program so that the trace and
 * the analysis report show them as regions of their own.
 *
 * C:        hindsight_region_begin("solve"); ... hindsight_region_end("solve");
 * C++:      { hindsight::Scope scope("solve"); ... }
 * Fortran:  call hindsight_region_begin('solve') ... call hindsight_region_end('solve')
 *
 * Regions nest; every begin needs its end (an end closes the innermost
 * open region). Link with -lhindsight-collect (the flags: pkg-config --cflags
 * --libs hindsight-collect). Without a measurement
 * (the program not started through hindsight-collect, or before MPI_Init
 * and after MPI_Finalize) the calls cost next to nothing.
 */
#ifndef HINDSIGHT_H
#define HINDSIGHT_H

#ifdef __cplusplus
extern "C" {
#endif

void hindsight_region_begin(const char* name);
void hindsight_region_end(const char* name);

#ifdef __cplusplus
}

namespace hindsight {

/* Records the enclosing C++ scope as a region. */
class Scope {
public:
    explicit Scope(const char* name) : name_(name) { hindsight_region_begin(name_); }
    ~Scope() { hindsight_region_end(name_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

private:
    const char* name_;
};

}  // namespace hindsight
#endif

#endif /* HINDSIGHT_H */
