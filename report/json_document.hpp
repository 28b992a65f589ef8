// The JSON side files the analyzer writes beside its report for the page
// (the communication structure, the timeline windows): read as they are
// and checked to be the document the page expects, so that a damaged or
// foreign file is refused with its problem instead of failing in the
// browser.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace hindsight::report {

// The text of `path`, checked to be one JSON object of the schema `schema`
// version 1. `what` names such a document in the problems ("communication
// structure": "not a communication structure (schema 'cube')"). Throws
// hindsight::Error naming `path` when it cannot be read or is not such a
// document.
std::string read_json_document(const std::filesystem::path& path, std::string_view schema, std::string_view what);

// read_json_document(), or nothing when there is no file `path`: a report
// need not have its side files.
std::optional<std::string> find_json_document(const std::filesystem::path& path, std::string_view schema,
                                              std::string_view what);

}  // namespace hindsight::report
