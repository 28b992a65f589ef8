// Owning wrappers for the OTF2 reader objects the loader uses, so that every
// early exit (a throw on bad input) closes files and frees readers.
#pragma once

#include <cstdarg>
#include <filesystem>
#include <memory>
#include <string>

#include <otf2/otf2.h>

#include "common/error.hpp"

namespace hindsight::trace::otf2 {

// While alive, OTF2's own error reports (which it would print to stderr)
// are captured here instead, so that the analyzer can turn a failure into
// one line naming the file. OTF2 keeps a single process-wide handler; the
// previous one is restored on destruction.
class ErrorCapture {
public:
    ErrorCapture();
    ~ErrorCapture();
    ErrorCapture(const ErrorCapture&) = delete;
    ErrorCapture& operator=(const ErrorCapture&) = delete;

    // OTF2's message for the last error since construction (or the generic
    // description of `code` when OTF2 said nothing).
    std::string message(OTF2_ErrorCode code) const;

private:
    static OTF2_ErrorCode record(void* self, const char* file, std::uint64_t line,
                                 const char* function, OTF2_ErrorCode code,
                                 const char* format, va_list args);
    OTF2_ErrorCallback previous_;
    std::string last_;
};

template <auto Delete>
struct Deleter {
    template <typename T>
    void operator()(T* p) const noexcept { Delete(p); }
};

using EvtCallbacks = std::unique_ptr<OTF2_EvtReaderCallbacks, Deleter<&OTF2_EvtReaderCallbacks_Delete>>;
using DefCallbacks = std::unique_ptr<OTF2_DefReaderCallbacks, Deleter<&OTF2_DefReaderCallbacks_Delete>>;
using GlobalDefCallbacks =
    std::unique_ptr<OTF2_GlobalDefReaderCallbacks, Deleter<&OTF2_GlobalDefReaderCallbacks_Delete>>;

// An open archive (the anchor file). Reads use OTF2's serial collective
// callbacks: each analysis rank reads its own part independently.
// Throws Error(file, ...) when `file` exists and is not a regular file:
// OTF2 would block for ever opening a FIFO.
void require_regular_if_present(const std::filesystem::path& file);

class Reader {
public:
    explicit Reader(const std::string& anchor_path);
    OTF2_Reader* get() const { return reader_.get(); }
    const std::string& path() const { return path_; }

    // Throws Error(path, what + ": " + OTF2's message) unless `code` is success.
    void check(OTF2_ErrorCode code, const std::string& what) const { check(code, what, path_); }
    // The same naming `file`, the archive's file that OTF2 failed to read.
    void check(OTF2_ErrorCode code, const std::string& what, const std::string& file) const;

private:
    std::string path_;
    ErrorCapture errors_;
    std::unique_ptr<OTF2_Reader, Deleter<&OTF2_Reader_Close>> reader_;
};

// A per-location reader of `Reader`, closed with the archive's Close function.
template <typename T, OTF2_ErrorCode (*Close)(OTF2_Reader*, T*)>
class SubReader {
public:
    SubReader(const Reader& reader, T* handle) : reader_(reader.get()), handle_(handle) {}
    ~SubReader() {
        if (handle_) Close(reader_, handle_);
    }
    SubReader(const SubReader&) = delete;
    SubReader& operator=(const SubReader&) = delete;
    T* get() const { return handle_; }
    explicit operator bool() const { return handle_ != nullptr; }

private:
    OTF2_Reader* reader_;
    T* handle_;
};

using GlobalDefReader = SubReader<OTF2_GlobalDefReader, &OTF2_Reader_CloseGlobalDefReader>;
using DefReader = SubReader<OTF2_DefReader, &OTF2_Reader_CloseDefReader>;
using EvtReader = SubReader<OTF2_EvtReader, &OTF2_Reader_CloseEvtReader>;

// Opens the archive's definition or event files for the selected locations
// and closes them again.
template <OTF2_ErrorCode (*Open)(OTF2_Reader*), OTF2_ErrorCode (*Close)(OTF2_Reader*)>
class OpenFiles {
public:
    OpenFiles(const Reader& reader, const std::string& what) : reader_(reader.get()) {
        reader.check(Open(reader_), what);
    }
    ~OpenFiles() { Close(reader_); }
    OpenFiles(const OpenFiles&) = delete;
    OpenFiles& operator=(const OpenFiles&) = delete;

private:
    OTF2_Reader* reader_;
};

using DefFiles = OpenFiles<&OTF2_Reader_OpenDefFiles, &OTF2_Reader_CloseDefFiles>;
using EvtFiles = OpenFiles<&OTF2_Reader_OpenEvtFiles, &OTF2_Reader_CloseEvtFiles>;

}  // namespace hindsight::trace::otf2
