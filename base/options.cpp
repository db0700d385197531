#include "options.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "input_error.hpp"

namespace course {

Options::Options(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {
  flag("help", "show this help and exit");
  value("device", "SPEC",
        "OpenCL device: an index from './course devices', part of a platform or device name "
        "(pocl, nvidia), or cpu / gpu. Default: $COURSE_DEVICE, else the first GPU, else the first CPU");
}

Options& Options::value(const std::string& name, const std::string& metavar, const std::string& help,
                        const std::string& default_value) {
  if (!specs_.count(name)) order_.push_back(name);
  specs_[name] = Spec{metavar, help, default_value, false};
  return *this;
}

Options& Options::flag(const std::string& name, const std::string& help) {
  if (!specs_.count(name)) order_.push_back(name);
  specs_[name] = Spec{"", help, "", true};
  return *this;
}

Options& Options::example(const std::string& command, const std::string& what) {
  examples_.emplace_back(command, what);
  return *this;
}

namespace {

// The number of single-letter insertions, deletions, substitutions and swaps of neighbours that
// turn `a` into `b` (so "raduis" is one from "radius").
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// "a, b, c".
std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

}  // namespace

void Options::parse(int argc, char** argv) {
  parse(std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
}

void Options::parse(const std::vector<std::string>& args) {
  arguments_ = args;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      std::cout << usage();
      throw HelpShown();
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2)
      throw UsageError("unexpected argument '" + arg + "': options start with -- (see --help)");
    const auto eq = arg.find('=');  // `--name=VALUE`
    const bool inline_value = eq != std::string::npos;
    const std::string name = arg.substr(2, inline_value ? eq - 2 : std::string::npos);
    std::string value = inline_value ? arg.substr(eq + 1) : "";
    auto spec = specs_.find(name);
    if (spec == specs_.end()) {
      std::string known, nearest;
      std::size_t best = 3;  // a suggestion only for a typo: at most two edits away
      for (const auto& n : order_) {
        known += " --" + n;
        if (const std::size_t d = edit_distance(name, n); d < best) best = d, nearest = n;
      }
      throw UsageError("unknown option '--" + name + "'" +
                       (nearest.empty() ? "" : "; did you mean --" + nearest + "?") + " This program knows:" + known);
    }
    if (spec->second.is_flag) {
      if (inline_value) throw UsageError("option '--" + name + "' takes no value");
      values_[name] = "1";
      continue;
    }
    if (!inline_value) {
      // The next word being an option means the value was forgotten: `--input --size 64`
      // must not read an image called "--size".
      if (i + 1 >= args.size() || (args[i + 1].size() > 2 && args[i + 1].rfind("--", 0) == 0))
        throw UsageError("option '--" + name + "' needs a value (" + spec->second.metavar + ")");
      value = args[++i];
    }
    values_[name] = value;
  }
  for (const auto& check : after_parse_) check(*this);
}

Options& Options::after_parse(std::function<void(const Options&)> check) {
  after_parse_.push_back(std::move(check));
  return *this;
}

std::string Options::text(const std::string& name) const {
  if (auto it = values_.find(name); it != values_.end()) return it->second;
  auto spec = specs_.find(name);
  return spec == specs_.end() ? std::string() : spec->second.default_value;
}

int Options::integer(const std::string& name, int min, int max) const {
  const std::string s = text(name);
  errno = 0;
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE || v < min || v > max)
    throw UsageError("option '--" + name + "' must be a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", not '" + s + "'");
  return static_cast<int>(v);
}

double Options::number(const std::string& name, double min, double max) const {
  const std::string s = text(name);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v) || v < min || v > max) {
    std::ostringstream msg;
    msg << "option '--" << name << "' must be a number from " << min << " to " << max << ", not '" << s << "'";
    throw UsageError(msg.str());
  }
  return v;
}

std::pair<int, int> Options::size(const std::string& name, int max_side) const {
  const std::string s = text(name);
  const auto x = s.find_first_of("xX");
  auto side = [&](const std::string& part) {
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || errno == ERANGE || v < 1 || v > max_side)
      throw UsageError("option '--" + name + "' must be WIDTHxHEIGHT (or N) with sides from 1 to " +
                       std::to_string(max_side) + ", not '" + s + "'");
    return static_cast<int>(v);
  };
  if (x == std::string::npos) return {side(s), side(s)};
  return {side(s.substr(0, x)), side(s.substr(x + 1))};
}

std::vector<double> Options::numbers(const std::string& name, std::size_t count) const {
  const std::string s = text(name);
  std::vector<double> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    double v = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !std::isfinite(v))
      throw UsageError("option '--" + name + "': '" + item + "' is not a number");
    out.push_back(v);
  }
  if (out.size() != count)
    throw UsageError("option '--" + name + "' needs " + std::to_string(count) + " comma-separated numbers, got " +
                     std::to_string(out.size()));
  return out;
}

std::string Options::choice(const std::string& name, const std::vector<std::string>& choices) const {
  const std::string s = text(name);
  if (std::find(choices.begin(), choices.end(), s) != choices.end()) return s;
  throw UsageError("option '--" + name + "' must be one of: " + joined(choices) + " (not '" + s + "')");
}

Options& Options::variant_option(const std::vector<std::string>& variants) {
  return value("variant", "NAMES", "run only these variants (comma-separated): " + joined(variants) + ", or all",
               "all");
}

std::vector<std::string> Options::chosen_variants(const std::vector<std::string>& variants) const {
  const std::string requested = text("variant");
  if (requested == "all") return variants;
  std::vector<std::string> chosen;
  std::stringstream names(requested);
  for (std::string name; std::getline(names, name, ',');) {
    if (std::find(variants.begin(), variants.end(), name) == variants.end())
      throw UsageError("option '--variant' takes all or names from: " + joined(variants) + " (not '" + name + "')");
    chosen.push_back(name);
  }
  if (chosen.empty()) throw UsageError("option '--variant' needs a name (or all)");
  // In the lesson's order, each once, whatever order they were typed in.
  std::vector<std::string> ordered;
  for (const auto& v : variants)
    if (std::find(chosen.begin(), chosen.end(), v) != chosen.end()) ordered.push_back(v);
  return ordered;
}

std::string Options::usage() const {
  std::ostringstream out;
  out << "usage: " << program_ << " [options]\n\n" << summary_ << "\n\noptions:\n";
  for (const auto& name : order_) {
    const Spec& spec = specs_.at(name);
    std::string left = "  --" + name + (spec.is_flag ? "" : " " + spec.metavar);
    // The help text starts in column 25: on the same line when the option is short enough.
    out << left << (left.size() < 24 ? std::string(24 - left.size(), ' ') : "\n" + std::string(24, ' '));
    out << spec.help;
    if (!spec.default_value.empty()) out << " (default: " << spec.default_value << ")";
    out << "\n";
  }
  if (!examples_.empty()) {
    out << "\nexamples:\n";
    for (const auto& [cmd, what] : examples_) out << "  " << cmd << "\n      " << what << "\n";
  }
  return out.str();
}

}  // namespace course
