#include "change_search.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "oclgrind.hpp"

namespace course {
namespace {

// The parts of a name that have a partner on the other axis, or at the other end.
const std::map<std::string, std::string> kPartners = {
    {"x", "y"},          {"y", "x"},          {"X", "Y"},          {"Y", "X"},         {"w", "h"},
    {"h", "w"},          {"W", "H"},          {"H", "W"},          {"lx", "ly"},       {"ly", "lx"},
    {"gx", "gy"},        {"gy", "gx"},        {"tx", "ty"},        {"ty", "tx"},       {"width", "height"},
    {"height", "width"}, {"WIDTH", "HEIGHT"}, {"HEIGHT", "WIDTH"}, {"row", "column"},  {"column", "row"},
    {"rows", "columns"}, {"columns", "rows"}, {"ROW", "COL"},      {"COL", "ROW"},     {"top", "bottom"},
    {"bottom", "top"},   {"left", "right"},   {"right", "left"},   {"above", "below"}, {"below", "above"},
    {"low", "high"},     {"high", "low"},     {"min", "max"},      {"max", "min"},     {"first", "last"},
    {"last", "first"},   {"input", "output"}, {"output", "input"}, {"src", "dst"},     {"dst", "src"},
    {"from", "to"},      {"to", "from"},      {"floor", "ceil"},   {"ceil", "floor"}};

// Work-item functions a learner takes one for another.
const std::vector<std::vector<std::string>> kIdFamilies = {{"get_global_id", "get_local_id", "get_group_id"},
                                                            {"get_global_size", "get_local_size", "get_num_groups"}};

struct Token {
  std::size_t begin, end;  // in the line
  std::string text;
  enum Kind { name, number, op } kind;
};

// The line's code tokens, comments left out (`in_comment` carries a /* */ comment across lines).
std::vector<Token> tokens_of(const std::string& line, bool& in_comment) {
  static const std::vector<std::string> ops = {"<<=", ">>=", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=",
                                               "-=",  "*=",  "/=", "<<", ">>", "->"};
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (in_comment) {
      const std::size_t end = line.find("*/", i);
      if (end == std::string::npos) return out;
      in_comment = false, i = end + 2;
      continue;
    }
    const char c = line[i];
    if (line.compare(i, 2, "//") == 0) break;
    if (line.compare(i, 2, "/*") == 0) {
      in_comment = true, i += 2;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    Token::Kind kind = Token::op;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_')) ++j;
      kind = Token::name;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])))) {
      while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '.' ||
                                 ((line[j] == '+' || line[j] == '-') && (line[j - 1] == 'e' || line[j - 1] == 'E'))))
        ++j;
      kind = Token::number;
    } else {
      for (const std::string& op : ops)
        if (line.compare(i, op.size(), op) == 0) {
          j = i + op.size();
          break;
        }
    }
    out.push_back({i, j, line.substr(i, j - i), kind});
    i = j;
  }
  return out;
}

// The end of the operand that starts at token `i`: a name (with a call's or an index's brackets),
// a number, or a bracketed expression; `i` itself when none starts there.
std::size_t operand_end(const std::vector<Token>& t, std::size_t i) {
  if (i >= t.size()) return i;
  const auto close = [&t](std::size_t open) {  // the token after the bracket that `open` opens
    int depth = 0;
    for (std::size_t k = open; k < t.size(); ++k) {
      if (t[k].text == "(" || t[k].text == "[") ++depth;
      if (t[k].text == ")" || t[k].text == "]") --depth;
      if (depth == 0) return k + 1;
    }
    return open;
  };
  std::size_t k = i;
  if (t[k].kind == Token::number) return k + 1;
  if (t[k].text == "(") return close(k);
  if (t[k].kind != Token::name) return i;
  ++k;
  while (k < t.size() && (t[k].text == "(" || t[k].text == "[")) {
    const std::size_t after = close(k);
    if (after == k) return i;
    k = after;
  }
  return k;
}

// The token that opens the bracket closed at token `close`; `close` itself where none does.
std::size_t opening(const std::vector<Token>& t, std::size_t close) {
  for (std::size_t a = close + 1, depth = 0; a-- > 0;) {
    if (t[a].text == ")" || t[a].text == "]") ++depth;
    if ((t[a].text == "(" || t[a].text == "[") && --depth == 0) return a;
  }
  return close;
}

bool is_integer(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A name's parts, split at '_': "tile_width" is {"tile", "width"}.
std::vector<std::string> name_parts(const std::string& name) {
  std::vector<std::string> parts;
  for (std::size_t a = 0, b; a <= name.size(); a = b + 1) {
    b = std::min(name.find('_', a), name.size());
    parts.push_back(name.substr(a, b - a));
  }
  return parts;
}

std::string trimmed(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Every line's tokens, a block comment carried from line to line.
std::vector<std::vector<Token>> tokens_of_lines(const std::vector<std::string>& lines) {
  std::vector<std::vector<Token>> tokens;
  bool comment = false;
  for (const std::string& line : lines) tokens.push_back(tokens_of(line, comment));
  return tokens;
}

std::vector<std::string> lines_of(const std::string& source) {
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines that store to a kernel's output (`output[...] = ...`, a `__global` pointer without
// `const`), counted from 1: where the first wrong output points when Oclgrind names no line.
std::vector<int> store_lines(const std::string& source) {
  const std::vector<std::vector<Token>> lines = tokens_of_lines(lines_of(source));
  std::set<std::string> outputs;
  for (const std::vector<Token>& t : lines)
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].text != "__global" && t[i].text != "global") continue;
      bool constant = false;
      std::size_t k = i + 1;
      for (; k < t.size() && t[k].text != "*"; ++k) constant = constant || t[k].text == "const";
      if (!constant && k + 1 < t.size() && t[k + 1].kind == Token::name) outputs.insert(t[k + 1].text);
    }
  std::vector<int> out;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::vector<Token>& t = lines[n];
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      if (!outputs.count(t[i].text) || t[i + 1].text != "[") continue;
      const std::size_t after = operand_end(t, i);
      if (after > i + 1 && after < t.size() && (t[after].text == "=" || t[after].text == "+=")) {
        out.push_back(static_cast<int>(n) + 1);
        break;
      }
    }
  }
  return out;
}

}  // namespace

std::vector<SmallChange> small_changes(const std::string& file, const std::string& source,
                                       const std::vector<int>& focus) {
  const std::vector<std::string> lines = lines_of(source);
  const std::vector<std::vector<Token>> tokens = tokens_of_lines(lines);
  // The lines the learner wrote: inside gaps that no longer hold the shipped placeholder.
  std::vector<bool> mine(lines.size(), false);
  bool has_gaps = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(">>> GAP") == std::string::npos) continue;
    has_gaps = true;
    std::size_t end = i + 1;
    bool placeholder = false;
    for (; end < lines.size() && lines[end].find("<<< GAP") == std::string::npos; ++end)
      placeholder = placeholder || lines[end].find("/* replace") != std::string::npos;
    if (!placeholder)
      for (std::size_t k = i + 1; k < end; ++k) mine[k] = true;
    i = end;
  }
  if (!has_gaps) std::fill(mine.begin(), mine.end(), true);

  // Every name of the file: a partner name must be one of them (or a built-in min, max, floor or
  // ceil). And
  // the terms the file uses, which a line may lack: an operator and the name or number after it
  // ("* width", "+ j"), and a number that multiplies a name ("2 *").
  // And the loops' variables (`for (int j = ...`), which a learner takes one for another.
  static const std::set<std::string> kWords = {
      "int",     "uint",       "float",     "float2",      "float4",       "int2",     "int4",
      "uchar",   "half",       "bool",      "size_t",      "const",        "unsigned", "void",
      "for",     "if",         "else",      "while",       "return",       "__kernel", "__global",
      "__local", "__constant", "__private", "__read_only", "__write_only", "sampler_t"};
  std::set<std::string> names = {"min", "max", "floor", "ceil"}, terms, factors, loop_names;
  for (const std::vector<Token>& t : tokens)
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].kind == Token::name) names.insert(t[i].text);
      if (t[i].text == "for" && i + 3 < t.size() && t[i + 1].text == "(" && t[i + 3].kind == Token::name)
        loop_names.insert(t[i + 3].text);
      const bool binary = i > 0 && (t[i - 1].kind != Token::op || t[i - 1].text == ")" || t[i - 1].text == "]");
      // (Not a pointer's star in a declaration: `const float* input`.)
      const bool pointer = i > 0 && t[i].text == "*" && kWords.count(t[i - 1].text);
      if (binary && !pointer && (t[i].text == "+" || t[i].text == "-" || t[i].text == "*") && i + 1 < t.size() &&
          t[i + 1].kind != Token::op && operand_end(t, i + 1) == i + 2)
        terms.insert(t[i].text + " " + t[i + 1].text);
      if (t[i].kind == Token::number && i + 2 < t.size() && t[i + 1].text == "*" && t[i + 2].kind == Token::name)
        factors.insert(t[i].text + " *");
    }
  for (const std::string& v : loop_names) terms.insert("+ " + v);  // a loop's variable left out of an index
  // The integer variables the file declares (`const int y0 = ...`, `int t = ...`, `for (int r = ...`),
  // with the line of each declaration; and the lines that set each name (`sum += ...`).
  std::map<std::string, std::size_t> int_names;
  std::map<std::string, std::vector<std::size_t>> set_at;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::vector<Token>& t = tokens[n];
    for (std::size_t i = 0; i + 1 < t.size(); ++i)
      if (t[i].kind == Token::name && (t[i + 1].text == "=" || t[i + 1].text == "+=" || t[i + 1].text == "-=" ||
                                       t[i + 1].text == "*=" || t[i + 1].text == "/="))
        set_at[t[i].text].push_back(n);
    bool declaring = false;
    for (std::size_t i = 0, depth = 0; i < t.size(); ++i) {
      if (t[i].text == "(" || t[i].text == "[") ++depth;
      if ((t[i].text == ")" || t[i].text == "]") && depth > 0) --depth;
      if (t[i].text == "int") declaring = true;
      if (t[i].text == ";") declaring = false;
      const bool after = i > 0 && (t[i - 1].text == "int" || (t[i - 1].text == "," && depth == 0));
      if (declaring && after && t[i].kind == Token::name && i + 1 < t.size() && t[i + 1].text == "=")
        int_names.emplace(t[i].text, n);
    }
  }
  // The lines tried first: those the failing case points at, the loops and branches around them
  // (a line indented less, above it, that opens a `for`, `if` or `while`), and the lines that set
  // the names they use (`y0`, `sum`), where an integer variable of the file may also be added or
  // taken off as a term.
  std::vector<bool> near(lines.size(), false);
  {
    const auto indent = [&lines](std::size_t n) { return lines[n].find_first_not_of(" \t"); };
    for (const int f : focus) {
      if (f < 1 || static_cast<std::size_t>(f) > lines.size()) continue;
      const std::size_t n = static_cast<std::size_t>(f) - 1;
      near[n] = true;
      for (std::size_t above = n, level = indent(n); above-- > 0 && level > 0 && level != std::string::npos;) {
        const std::string code = trimmed(lines[above]);
        if (code.empty() || indent(above) >= level || code.rfind("/*", 0) == 0 || code.rfind("//", 0) == 0) continue;
        level = indent(above);
        if (code.rfind("for (", 0) == 0 || code.rfind("if (", 0) == 0 || code.rfind("while (", 0) == 0)
          near[above] = true;
      }
      for (const Token& k : tokens[n])
        if (const auto d = set_at.find(k.text); k.kind == Token::name && d != set_at.end())
          for (const std::size_t at : d->second) near[at] = true;
    }
    for (std::size_t n = 0; n < lines.size(); ++n) near[n] = near[n] && mine[n];
  }
  // Tiers, most likely first: ids, axes and sibling names, comparisons, signs, terms left in,
  // numbers one off, other macros, products for quotients, terms left out; then, only on the lines
  // the case points at, an integer variable left out as a term (tried before the terms left out).
  std::vector<std::vector<SmallChange>> tiers(10);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string& line = lines[n];
    const std::vector<Token>& t = tokens[n];
    // Where a `for` line's head ends: a change inside it must keep the loop a loop.
    const std::size_t head_end = t.size() > 1 && t[0].text == "for" ? operand_end(t, 1) : 0;
    const std::string code = trimmed(line);
    if (!mine[n] || t.empty() || (code.rfind('#', 0) == 0 && code.rfind("#define", 0) != 0)) continue;
    const auto add = [&](int tier, std::size_t begin, std::size_t end, const std::string& to,
                         const std::string& anchor = "", bool before = false) {
      SmallChange c;
      c.file = file, c.line = static_cast<int>(n) + 1, c.text = trimmed(line);
      c.from = line.substr(begin, end - begin), c.to = to, c.anchor = anchor, c.before = before;
      // The innermost brackets around the change, with the name of the function they call.
      std::size_t open = std::string::npos, close = std::string::npos;
      for (std::size_t a = begin, depth = 0; a-- > 0;) {
        if (line[a] == ')' || line[a] == ']') ++depth;
        if ((line[a] == '(' || line[a] == '[') && depth-- == 0) {
          open = a;
          break;
        }
      }
      for (std::size_t b = end, depth = 0; open != std::string::npos && b < line.size(); ++b) {
        if (line[b] == '(' || line[b] == '[') ++depth;
        if ((line[b] == ')' || line[b] == ']') && depth-- == 0) {
          close = b;
          break;
        }
      }
      std::size_t from = 0;
      if (close != std::string::npos) {
        while (open > 0 && (std::isalnum(static_cast<unsigned char>(line[open - 1])) || line[open - 1] == '_')) --open;
        c.context = line.substr(open, close + 1 - open), from = open;
      } else {
        c.context = c.text, from = line.find(c.text);
      }
      // Which of the context's `from`s it is (an insertion's: which of its `anchor`s), where it
      // holds several.
      const std::string& what = c.from.empty() ? c.anchor : c.from;
      const std::size_t where = c.from.empty() && !c.before ? begin - std::min(begin, c.anchor.size()) : begin;
      if (!what.empty()) {
        int count = 0, which = 0;
        const auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
        for (std::size_t at = c.context.find(what); at != std::string::npos; at = c.context.find(what, at + 1)) {
          // Only a whole name counts: the `i` of `x0 + i`, not the one in `height`.
          if ((word(what.front()) && at > 0 && word(c.context[at - 1])) ||
              (word(what.back()) && at + what.size() < c.context.size() && word(c.context[at + what.size()])))
            continue;
          ++count;
          if (from + at == where) which = count;
        }
        if (count > 1) c.occurrence = which;
      }
      std::string changed = line.substr(0, begin) + to + line.substr(end);
      std::ostringstream whole;
      for (std::size_t k = 0; k < lines.size(); ++k) whole << (k == n ? changed : lines[k]) << "\n";
      c.source = whole.str();
      c.tier = tier, c.focus = near[n];
      tiers[tier].push_back(std::move(c));
    };
    for (std::size_t i = 0; i < t.size(); ++i) {
      const Token& k = t[i];
      if (k.kind == Token::name) {
        for (const auto& family : kIdFamilies)
          if (std::find(family.begin(), family.end(), k.text) != family.end())
            for (const std::string& other : family)
              if (other != k.text) add(0, k.begin, k.end, other);
        // The name with one part (split at '_') on its other axis, where that name exists.
        const std::vector<std::string> parts = name_parts(k.text);
        for (std::size_t p = 0; p < parts.size(); ++p) {
          const auto partner = kPartners.find(parts[p]);
          if (partner == kPartners.end()) continue;
          std::string other;
          for (std::size_t q = 0; q < parts.size(); ++q)
            other += (q ? "_" : "") + (q == p ? partner->second : parts[q]);
          if (names.count(other)) add(1, k.begin, k.end, other);
        }
        // Another loop's variable (j for i), outside a loop's head (where it makes the loop endless).
        if (loop_names.count(k.text) && i >= head_end)
          for (const std::string& other : loop_names)
            if (other != k.text) add(1, k.begin, k.end, other);
        // Two names of the same brackets swapped (`i * taps + j` for `j * taps + i`): two loop
        // variables, or a name and its partner on the other axis.
        for (std::size_t j = i + 1, depth = 0; j < t.size(); ++j) {
          if (t[j].text == "(" || t[j].text == "[") ++depth;
          if (t[j].text == ")" || t[j].text == "]") {
            if (depth == 0) break;
            --depth;
          }
          if (depth != 0 || t[j].kind != Token::name || t[j].text == k.text) continue;
          const auto partner = kPartners.find(k.text);
          const bool pair = (loop_names.count(k.text) && loop_names.count(t[j].text)) ||
                            (partner != kPartners.end() && partner->second == t[j].text);
          if (!pair) continue;
          const std::string between = line.substr(k.end, t[j].begin - k.end);
          add(1, k.begin, t[j].end, t[j].text + between + k.text);
        }
        // A name of the file that differs from this one in one part (tile_width, group_width), or,
        // for a macro's name (all capitals), any other macro's name.
        const bool macro = std::none_of(k.text.begin(), k.text.end(), [](unsigned char c) { return std::islower(c); }) &&
                           std::any_of(k.text.begin(), k.text.end(), [](unsigned char c) { return std::isupper(c); });
        for (const std::string& other : names) {
          if (other == k.text || other.rfind("__", 0) == 0 || other.rfind("CLK_", 0) == 0 || k.text.rfind("__", 0) == 0)
            continue;
          const std::vector<std::string> its = name_parts(other);
          int differ = its.size() == parts.size() ? 0 : 2;
          for (std::size_t q = 0; q < its.size() && differ < 2; ++q) differ += its[q] != parts[q];
          const bool other_macro =
              std::none_of(other.begin(), other.end(), [](unsigned char c) { return std::islower(c); });
          // The same stem with another number after it (t2 and t3, t2 and t).
          const auto stem = [](const std::string& n) { return n.substr(0, n.find_last_not_of("0123456789") + 1); };
          // Or a short name with one letter more or less in front (x, lx and gx).
          const bool prefixed =
              std::max(other.size(), k.text.size()) <= 3 &&
              (other == k.text.substr(1) || k.text == other.substr(std::min<std::size_t>(1, other.size())));
          if ((parts.size() > 1 && differ == 1) || (stem(other) == stem(k.text) && !stem(k.text).empty()) || prefixed)
            add(1, k.begin, k.end, other);
          else if (macro && other_macro && other.size() > 1) add(6, k.begin, k.end, other);
        }
      } else if (k.kind == Token::number && is_integer(k.text)) {
        const long v = std::strtol(k.text.c_str(), nullptr, 10);
        add(5, k.begin, k.end, std::to_string(v + 1));
        if (v > 0) add(5, k.begin, k.end, std::to_string(v - 1));
      } else if (k.kind == Token::op) {
        static const std::map<std::string, std::vector<std::string>> swaps = {
            {"<", {"<=", ">"}}, {"<=", {"<", ">="}}, {">", {">=", "<"}},  {">=", {">", "<="}},
            {"==", {"!="}},     {"!=", {"=="}},      {"+=", {"-=", "="}}, {"-=", {"+=", "="}}};
        // (A loop's step stays a step: `r = 4` there makes the loop endless.)
        if (const auto s = swaps.find(k.text); s != swaps.end())
          for (const std::string& to : s->second)
            if (!(to == "=" && i < head_end)) add(2, k.begin, k.end, to);
        const bool binary = i > 0 && (t[i - 1].kind != Token::op || t[i - 1].text == ")" || t[i - 1].text == "]");
        if (k.text == "+" || k.text == "-") add(3, k.begin, k.end, k.text == "+" ? "-" : "+");
        if (k.text == "*" || k.text == "/") add(7, k.begin, k.end, k.text == "*" ? "/" : "*");
        // Brackets left out or put in: `a * b + c` for `a * (b + c)`, `a + b * c` for `(a + b) * c`,
        // and `a * (b + c)` for `a * b + c`.
        const auto sum_at = [&t](std::size_t e) { return e < t.size() && (t[e].text == "+" || t[e].text == "-"); };
        const auto product_at = [&t](std::size_t e) { return e < t.size() && (t[e].text == "*" || t[e].text == "/"); };
        if (binary && product_at(i)) {
          const std::size_t e = operand_end(t, i + 1);
          if (e > i + 1 && sum_at(e)) {
            const std::size_t e2 = operand_end(t, e + 1);
            if (e2 > e + 1 && !product_at(e2)) {
              const std::string inner = line.substr(t[i + 1].begin, t[e2 - 1].end - t[i + 1].begin);
              add(3, t[i + 1].begin, t[e2 - 1].end, "(" + inner + ")");
            }
          }
        }
        if (binary && sum_at(i) && !product_at(i - 1)) {
          std::size_t s = i - 1;  // the operand before the sign
          if (t[s].text == ")" || t[s].text == "]") s = opening(t, s);
          if (s > 0 && t[s - 1].kind == Token::name && s != i - 1) --s;
          const std::size_t e = operand_end(t, i + 1);
          if (operand_end(t, s) == i && e > i + 1 && product_at(e) && !(s > 0 && product_at(s - 1))) {
            const std::string inner = line.substr(t[s].begin, t[e - 1].end - t[s].begin);
            add(3, t[s].begin, t[e - 1].end, "(" + inner + ")");
          }
        }
        if (k.text == "(" && !(i > 0 && t[i - 1].kind == Token::name) && !(i + 2 < t.size() && t[i + 2].text == ")")) {
          const std::size_t after = operand_end(t, i);
          if (after > i + 2 && t[after - 1].text == ")") {
            const std::string inner = line.substr(t[i + 1].begin, t[after - 2].end - t[i + 1].begin);
            add(3, k.begin, t[after - 1].end, inner);
          }
        }
        // A term too many: the operator and the operand after it (with what it multiplies).
        if (binary && (k.text == "+" || k.text == "-" || k.text == "*")) {
          std::size_t end = operand_end(t, i + 1);
          if (end == i + 1) continue;
          while (k.text != "*" && end + 1 < t.size() && (t[end].text == "*" || t[end].text == "/")) {
            const std::size_t next = operand_end(t, end + 1);
            if (next == end + 1) break;
            end = next;
          }
          add(4, k.begin, t[end - 1].end, "");
        }
      }
      // A term the file uses, left out here: after an operand (a name, a number, a call or an
      // index), or a factor before a name; never in a declaration or a loop's or branch's head.
      const bool declared = i > 0 && kWords.count(t[i - 1].text);
      const bool next_opens = i + 1 < t.size() && (t[i + 1].text == "(" || t[i + 1].text == "[");
      const bool assigned = i + 1 < t.size() && t[i + 1].text.back() == '=' && t[i + 1].text != "==" &&
                            t[i + 1].text != "<=" && t[i + 1].text != ">=" && t[i + 1].text != "!=";
      if (declared || next_opens || assigned || kWords.count(k.text)) continue;
      std::size_t start = i;
      if (k.text == ")" || k.text == "]") {
        start = opening(t, i);
        if (start > 0 && t[start - 1].kind == Token::name) --start;
        if (start == i || kWords.count(t[start].text)) continue;  // unmatched, or a loop's or branch's head
      } else if (k.kind == Token::op) {
        continue;
      }
      const std::string operand = line.substr(t[start].begin, k.end - t[start].begin);
      for (const std::string& term : terms) add(8, k.end, k.end, " " + term, operand);
      if (k.kind == Token::name)
        for (const std::string& factor : factors) add(8, k.begin, k.begin, factor + " ", k.text, true);
      // On a line the case points at: an integer variable of the file added or taken off
      // (`y0 + r` for `r`, `x - x0` for `x`), a name the line does not hold yet, next to a name
      // that indexes an array or is compared.
      const auto compares = [&t](std::size_t at) {
        static const std::set<std::string> comparisons = {"<", "<=", ">", ">="};
        return at < t.size() && comparisons.count(t[at].text) > 0;
      };
      const auto indexes = [&t](std::size_t at) {  // the innermost bracket around token `at` is [ ]
        for (std::size_t a = at, depth = 0; a-- > 0;) {
          if (t[a].text == ")" || t[a].text == "]") ++depth;
          if ((t[a].text == "(" || t[a].text == "[") && depth-- == 0) return t[a].text == "[";
        }
        return false;
      };
      if (near[n] && k.kind == Token::name && int_names.count(k.text) &&
          (indexes(i) || compares(i + 1) || (i > 0 && compares(i - 1))))
        for (const auto& [name, declared_at] : int_names) {
          if (declared_at == n ||
              std::any_of(t.begin(), t.end(), [&name](const Token& other) { return other.text == name; }))
            continue;
          add(9, k.end, k.end, " + " + name, operand);
          add(9, k.end, k.end, " - " + name, operand);
          add(9, k.begin, k.begin, name + " + ", k.text, true);
        }
    }
  }
  // A variable set before a loop that each round needs afresh (a sum not reset), or the other way
  // round: the declaration moved into the loop that follows it, or out of the loop it opens.
  const auto declaration = [](const std::string& code) {
    const std::size_t space = code.find(' ');
    return space != std::string::npos && kWords.count(code.substr(0, space)) && code.back() == ';' &&
           code.find('=') != std::string::npos && code.rfind("for", 0) != 0 && code.rfind("return", 0) != 0;
  };
  const auto loop_head = [](const std::string& code) { return code.rfind("for (", 0) == 0 && code.back() == '{'; };
  for (std::size_t n = 0; n + 1 < lines.size(); ++n) {
    if (!mine[n] || !mine[n + 1]) continue;
    const std::string a = trimmed(lines[n]), b = trimmed(lines[n + 1]);
    const int direction = declaration(a) && loop_head(b) ? 1 : loop_head(a) && declaration(b) ? -1 : 0;
    if (direction == 0) continue;
    const std::size_t statement = direction > 0 ? n : n + 1;
    SmallChange c;
    c.file = file, c.line = static_cast<int>(statement) + 1, c.text = c.context = trimmed(lines[statement]);
    c.moved = direction;
    const std::string indent = lines[n].substr(0, lines[n].find_first_not_of(" \t"));
    std::ostringstream whole;
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (k == n)
        whole << (direction > 0 ? lines[n + 1] + "\n" + indent + "  " + a : indent + b + "\n" + lines[n]);
      else if (k == n + 1)
        continue;
      else
        whole << lines[k];
      whole << "\n";
    }
    c.source = whole.str();
    c.tier = 2, c.focus = near[statement];
    tiers[2].push_back(std::move(c));
  }
  std::vector<SmallChange> all;
  std::set<std::string> seen;
  for (auto& tier : tiers)
    for (SmallChange& c : tier)
      if (seen.insert(c.source).second && c.source != source) all.push_back(std::move(c));
  return all;
}

namespace {

// A started program: its process, when it started, and the change it tries.
struct Running {
  pid_t pid;
  std::chrono::steady_clock::time_point started;
  std::size_t change;
  bool verifying;  // every case (else the one case)
  std::filesystem::path copy;
};

}  // namespace

ChangeSearch search_one_change(const ChangeRunner& runner, const std::filesystem::path& folder, int only_case,
                               double seconds, int parallel, const std::vector<std::pair<std::string, int>>& focus) {
  ChangeSearch search;
  std::vector<SmallChange> changes;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".cl") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string name = entry.path().filename().string();
    // Where Oclgrind names no line, the lines that store the outputs.
    std::vector<int> lines = focus.empty() ? store_lines(text.str()) : std::vector<int>();
    for (const auto& [file, line] : focus)
      if (std::filesystem::path(file).filename() == name) lines.push_back(line);
    for (SmallChange& c : small_changes(name, text.str(), lines)) changes.push_back(std::move(c));
  }
  // The lines the case points at first: their slips by tier, then an integer variable left out as
  // a term; then the likeliest slips of every file (a kernel file that holds no slip does not use
  // up the time); the file's terms left out last, those of the lines the case points at first.
  const auto rank = [](const SmallChange& c) {
    return c.tier == 9 ? 1 : c.tier == 8 ? (c.focus ? 10 : 11) : c.focus ? 0 : 2 + c.tier;
  };
  std::stable_sort(changes.begin(), changes.end(),
                   [&rank](const SmallChange& a, const SmallChange& b) { return rank(a) < rank(b); });
  search.candidates = static_cast<int>(changes.size());
  if (changes.empty()) return search;
  const auto scratch = std::filesystem::temp_directory_path() / ("course-change-" + std::to_string(getpid()));
  const std::string from_name = folder.parent_path().filename().string();
  const auto begin = std::chrono::steady_clock::now();
  const auto elapsed = [&begin] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  };
  std::vector<Running> running;
  double slowest = 0;  // the slowest run of one case that ended by itself, in seconds
  std::size_t next = 0;
  int made = 0;
  const auto launch = [&](std::size_t change, bool verifying) {
    const auto copy = scratch / std::to_string(made++);
    const auto into = copy / from_name / folder.filename();
    std::filesystem::create_directories(into);
    std::filesystem::copy(folder, into, std::filesystem::copy_options::recursive);
    std::ofstream(into / changes[change].file) << changes[change].source;
    std::vector<std::string> args;
    if (!verifying && !runner.oclgrind.empty()) args.push_back(runner.oclgrind);
    args.insert(args.end(), runner.check.begin(), runner.check.end());
    if (!verifying && !runner.oclgrind.empty()) args.insert(args.end(), {"--device", "Oclgrind"});
    else args.insert(args.end(), runner.device.begin(), runner.device.end());
    // The outcome is read from --result's file: a program under Oclgrind may abort as it exits.
    for (const std::string& a : {std::string("--from"), (copy / from_name).string(), std::string("--report-dir"),
                                 (copy / "report").string(), std::string("--result"), (copy / "result.json").string()})
      args.push_back(a);
    if (verifying) args.insert(args.end(), {"--expect", "pass"});
    else args.insert(args.end(), {"--only-case", std::to_string(only_case)});
    // The search is off in the program it starts.
    running.push_back(
        {start_silenced(args, {"COURSE_CHANGE_SEARCH=0"}), std::chrono::steady_clock::now(), change, verifying, copy});
  };
  // The changes still to try, in order: all of them until one makes every case pass, then the
  // others on its line (for at most 20 s more), where a second may too.
  std::vector<std::size_t> queue(changes.size());
  for (std::size_t k = 0; k < queue.size(); ++k) queue[k] = k;
  double until = seconds;
  std::error_code ignored;
  while (search.also.size() < 2) {
    while (static_cast<int>(running.size()) < parallel && next < queue.size() && elapsed() < until)
      launch(queue[next++], false), ++search.tried;
    if (running.empty()) break;
    int status = 0;
    const pid_t done = waitpid(-1, &status, WNOHANG);
    if (done <= 0) {
      // A program past its share of the time is stopped: a change that makes the kernel loop
      // (one case gets four times the slowest that ended, at least 3 s).
      for (Running& r : running)
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - r.started).count() >
            (r.verifying ? 120 : slowest > 0 ? std::max(3.0, 4 * slowest) : 30))
          kill(-r.pid, SIGKILL), kill(r.pid, SIGKILL);
      if (elapsed() > until + 120)
        for (Running& r : running) kill(-r.pid, SIGKILL), kill(r.pid, SIGKILL);
      usleep(20000);
      continue;
    }
    const auto it = std::find_if(running.begin(), running.end(), [done](const Running& r) { return r.pid == done; });
    if (it == running.end()) continue;
    const Running r = *it;
    running.erase(it);
    std::ifstream result(r.copy / "result.json");
    std::stringstream outcome;
    outcome << result.rdbuf();
    std::filesystem::remove_all(r.copy, ignored);
    const bool passed = outcome.str().find("\"passed\": true") != std::string::npos;
    if (!r.verifying && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
      slowest = std::max(slowest, std::chrono::duration<double>(std::chrono::steady_clock::now() - r.started).count());
    const SmallChange& c = changes[r.change];
    if (passed && r.verifying && !search.found) {
      search.found = true, search.change = c;
      std::vector<std::size_t> same_line;
      for (std::size_t k = next; k < queue.size(); ++k)
        if (changes[queue[k]].file == c.file && changes[queue[k]].line == c.line) same_line.push_back(queue[k]);
      queue = std::move(same_line), next = 0, until = std::min(seconds, elapsed() + 20);
    } else if (passed && r.verifying) {
      if (c.file == search.change.file && c.line == search.change.line) search.also.push_back(c);
    } else if (passed) {
      launch(r.change, true);
    }
  }
  for (Running& r : running) {
    kill(-r.pid, SIGKILL), kill(r.pid, SIGKILL);
    waitpid(r.pid, nullptr, 0);
  }
  search.out_of_time = !search.found && next < queue.size();
  std::filesystem::remove_all(scratch, ignored);
  return search;
}

namespace {

// How a change changes its context: "with `3` for its `2`", "without its `- radius`", "with `* width`
// added after its `clamp(i, 0, height - 1)`".
std::string how(const SmallChange& c) {
  static const char* const ordinals[] = {"", "first ", "second ", "third ", "fourth ", "fifth "};
  // "its `x`", "its second `x`": which of the context's names it is, where it holds several.
  const auto its_nth = [&c](const std::string& what) {
    return "its " + std::string(c.occurrence > 0 && c.occurrence < 6 ? ordinals[c.occurrence] : "") + "`" + what + "`";
  };
  const std::string its = its_nth(c.from);
  if (c.moved != 0) return c.moved > 0 ? "moved into the loop below it" : "moved out of its loop, before it";
  if (c.from.size() > 2 && c.from == "(" + c.to + ")") return "without the brackets around its `" + c.to + "`";
  if (c.to.size() > 2 && c.to == "(" + c.from + ")") return "with brackets around its `" + c.from + "`";
  if (c.from.empty())
    return "with `" + trimmed(c.to) + "` added " + (c.before ? "before" : "after") + " " + its_nth(c.anchor);
  return c.to.empty() ? "without " + its : "with `" + c.to + "` for " + its;
}

}  // namespace

std::string change_sentence(const ChangeSearch& search) {
  if (!search.found) return "";
  const SmallChange& c = search.change;
  const std::string where = "line " + std::to_string(c.line) + " of " + c.file;
  std::string text = search.also.empty()
                         ? "One small change makes every case pass, so it is likely the mistake: " + where + ", "
                         : "Each of these small changes to " + where +
                               " makes every case pass, so the mistake is likely there: ";
  text += "`" + c.context + "` " + how(c);
  for (const SmallChange& other : search.also)
    text += other.context == c.context ? ", or " + how(other) : ", or `" + other.context + "` " + how(other);
  return text + ".";
}

double change_search_seconds() {
  const char* value = std::getenv("COURSE_CHANGE_SEARCH");
  if (!value || !*value) return 60;
  const double seconds = std::atof(value);
  return seconds > 0 ? seconds : 0;
}

}  // namespace course
