// run_io.cpp: reading config.txt and the input buffers, writing result.txt and the
// output buffers (formats in sim/README.md).
#include "run_io.h"

#include <fstream>
#include <iterator>
#include <sstream>

namespace ohls {

namespace {

bool read_file(const std::string& path, std::vector<uint8_t>& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return true;
}

std::string region_line(std::istringstream& ls, const std::string& dir, RunConfig& cfg) {
    Region r;
    uint64_t len = 0;
    if (!(ls >> r.index >> r.base >> len)) return "bad region line";
    std::string in = dir + "/in_" + std::to_string(r.index) + ".bin";
    if (!read_file(in, r.data)) return "cannot read " + in;
    if (r.data.size() != len) return in + " does not hold " + std::to_string(len) + " bytes";
    r.out_file = dir + "/out_" + std::to_string(r.index) + ".bin";
    cfg.mem.regions.push_back(std::move(r));
    return "";
}

}  // namespace

std::string read_config(const std::string& dir, RunConfig& cfg) {
    std::ifstream f(dir + "/config.txt");
    if (!f) return "cannot read " + dir + "/config.txt";
    std::string line;
    while (std::getline(f, line)) {
        std::istringstream ls(line);
        std::string key;
        if (!(ls >> key)) continue;
        MemTiming& t = cfg.timing;
        bool ok = true;
        if (key == "cycle_limit") ok = bool(ls >> cfg.cycle_limit);
        else if (key == "read_latency") ok = bool(ls >> t.read_latency);
        else if (key == "write_latency") ok = bool(ls >> t.write_latency);
        else if (key == "bw_milli") ok = bool(ls >> t.bw_milli);
        else if (key == "max_outstanding") ok = bool(ls >> t.max_outstanding);
        else if (key == "max_burst") ok = bool(ls >> t.max_burst);
        else if (key == "stall_percent") ok = bool(ls >> t.stall_percent);
        else if (key == "seed") ok = bool(ls >> t.seed);
        else if (key == "csr") {
            uint32_t a = 0, v = 0;
            ok = bool(ls >> a >> v);
            cfg.csr.emplace_back(a, v);
        } else if (key == "read") {
            uint32_t a = 0;
            ok = bool(ls >> a);
            cfg.reads.push_back(a);
        } else if (key == "trace") {
            std::getline(ls >> std::ws, cfg.trace);
            ok = !cfg.trace.empty();
        } else if (key == "region") {
            std::string e = region_line(ls, dir, cfg);
            if (!e.empty()) return e + ": " + line;
        } else {
            return "unknown config key: " + line;
        }
        if (!ok) return "bad config line: " + line;
    }
    return "";
}

bool write_result(const std::string& dir, const RunConfig& cfg, const RunResult& res) {
    if (res.done) {
        for (const auto& r : cfg.mem.regions) {
            std::ofstream o(r.out_file, std::ios::binary);
            o.write(reinterpret_cast<const char*>(r.data.data()), std::streamsize(r.data.size()));
            if (!o) return false;
        }
    }
    std::ofstream o(dir + "/result.txt");
    o << "status " << (res.done ? "done" : "fault") << "\n";
    o << "start_cycle " << res.start_cycle << "\n";
    o << "done_cycle " << res.done_cycle << "\n";
    o << "total_cycles " << res.total_cycles << "\n";
    o << "error_code " << res.error_code << "\n";
    for (const auto& s : res.stats)
        o << "stats " << s.first << " " << s.second.ar_bursts << " " << s.second.r_beats << " "
          << s.second.aw_bursts << " " << s.second.w_beats << "\n";
    for (const auto& r : res.reads) o << "read " << r.first << " " << r.second << "\n";
    if (!res.done) o << "message\n" << res.message << "\n";
    return bool(o);
}

}  // namespace ohls
