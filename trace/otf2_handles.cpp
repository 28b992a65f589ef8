#include "trace/otf2_handles.hpp"

#include <array>
#include <cstdio>
#include <filesystem>

namespace hindsight::trace::otf2 {

ErrorCapture::ErrorCapture() : previous_(OTF2_Error_RegisterCallback(&ErrorCapture::record, this)) {}

ErrorCapture::~ErrorCapture() { OTF2_Error_RegisterCallback(previous_, nullptr); }

OTF2_ErrorCode ErrorCapture::record(void* self, const char*, std::uint64_t, const char*,
                                    OTF2_ErrorCode code, const char* format, va_list args) {
    std::array<char, 512> text{};
    if (format) std::vsnprintf(text.data(), text.size(), format, args);
    auto& capture = *static_cast<ErrorCapture*>(self);
    capture.last_ = text[0] ? text.data() : OTF2_Error_GetDescription(code);
    return code;
}

std::string ErrorCapture::message(OTF2_ErrorCode code) const {
    return last_.empty() ? OTF2_Error_GetDescription(code) : last_;
}

void require_regular_if_present(const std::filesystem::path& file) {
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw Error(file.string(), "is not a regular file");
}

Reader::Reader(const std::string& anchor_path) : path_(anchor_path) {
    // OTF2 accepts almost any path and fails late with a vague message; the
    // common mistakes get a precise one here.
    std::error_code ec;
    const auto status = std::filesystem::status(anchor_path, ec);
    if (!std::filesystem::exists(status)) throw Error(anchor_path, "no such file");
    if (std::filesystem::is_directory(status))
        throw Error(anchor_path, "is a directory; give the archive's .otf2 anchor file");
    // OTF2 would block for ever opening a FIFO, or read a device.
    if (!std::filesystem::is_regular_file(status)) throw Error(anchor_path, "is not a regular file");
    std::filesystem::path definitions = anchor_path;
    require_regular_if_present(definitions.replace_extension(".def"));
    reader_.reset(OTF2_Reader_Open(anchor_path.c_str()));
    if (!reader_) throw Error(anchor_path, "not an OTF2 archive (" + errors_.message(OTF2_ERROR_INVALID) + ")");
    check(OTF2_Reader_SetSerialCollectiveCallbacks(reader_.get()), "cannot set up reading");
}

void Reader::check(OTF2_ErrorCode code, const std::string& what, const std::string& file) const {
    if (code != OTF2_SUCCESS) throw Error(file, what + " (" + errors_.message(code) + ")");
}

}  // namespace hindsight::trace::otf2
