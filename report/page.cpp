#include "report/page.hpp"

#include <fstream>
#include <string_view>

#include "common/error.hpp"
#include "common/output_file.hpp"
#include "report/compression.hpp"
#include "report/findings.hpp"
#include "report/page_assets.hpp"
#include "report/page_data.hpp"

namespace hindsight::report {

namespace {

// `text` with the one occurrence of `marker` replaced by `content`.
std::string filled(std::string text, std::string_view marker, std::string_view content) {
    const auto at = text.find(marker);
    // The template is ours and embedded at build time: a missing marker is a
    // build defect, not an input problem.
    if (at == std::string::npos) throw std::logic_error("page template lacks " + std::string(marker));
    text.replace(at, marker.size(), content);
    return text;
}

// A side file's JSON as the page embeds it: compressed and base64-encoded,
// so that no text of the trace can end the script element; nothing for none.
std::string embedded(const std::string& json) { return json.empty() ? std::string() : base64(gzip(json)); }

}  // namespace

std::string page_html(const cube::Report& report, const std::string& title, const std::string& communication_json,
                      const std::string& timeline_json) {
    std::string page(kPageHtml);
    page = filled(std::move(page), "/*@STYLE@*/", kPageCss);
    page = filled(std::move(page), "/*@SCRIPT@*/", kPageJs);
    // The summary's limits of the findings (the share below which start-up
    // and finishing waits are noise, how many wait states are listed), from
    // the pattern rows that set them: the script holds markers in their
    // places, no numbers of its own.
    page = filled(std::move(page), "@NOISE_SHARE@", noise_share_text());
    page = filled(std::move(page), "@WAIT_STATES_SHOWN@", wait_states_shown_text());
    page = filled(std::move(page), "@COMMUNICATION@", embedded(communication_json));
    page = filled(std::move(page), "@TIMELINE@", embedded(timeline_json));
    return filled(std::move(page), "@DATA@", base64(gzip(encode_page_data(report, title))));
}

void write_page(const cube::Report& report, const std::string& title, const std::filesystem::path& path,
                const std::string& communication_json, const std::string& timeline_json) {
    const std::string page = page_html(report, title, communication_json, timeline_json);
    write_output_file(path, [&](const std::filesystem::path& partial) {
        std::ofstream out(partial, std::ios::binary);
        out.write(page.data(), static_cast<std::streamsize>(page.size()));
        out.close();
        if (!out) throw Error(path.string(), "cannot write the page");
    });
}

std::filesystem::path default_page_path(const std::filesystem::path& cubex) {
    std::filesystem::path page = cubex;
    return page.replace_extension(".html");
}

std::filesystem::path default_difference_page_path(const std::filesystem::path& after) {
    std::filesystem::path page = after;
    return page.replace_extension(".diff.html");
}

}  // namespace hindsight::report
