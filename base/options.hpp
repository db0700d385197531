/// @file options.hpp
/// @brief One small command-line parser used by every lesson and tool of the course.
#pragma once

#include <exception>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace course {

/// @brief `--help` was given: usage has been printed and the program should exit with 0.
struct HelpShown : std::exception {
  /// @brief A fixed text; this exception carries no message.
  const char* what() const noexcept override { return "help shown"; }
};

/// @brief Declares options, parses argv, and answers typed questions with range checks.
///
/// Every option is `--name VALUE` (or `--name=VALUE`) or a flag `--name`. `--help` and
/// `--device` exist in every program. Mistakes throw UsageError naming the option and what is
/// allowed; `--help` prints the usage and throws HelpShown.
class Options {
 public:
  /// @param program the command as the student types it, e.g. "./course run 02".
  /// @param summary one or two sentences on what the program does.
  Options(std::string program, std::string summary);

  /// @brief Declares `--name VALUE` with a default ("" means none) and a help line.
  Options& value(const std::string& name, const std::string& metavar, const std::string& help,
                 const std::string& default_value = "");
  /// @brief Declares a flag `--name` that takes no value.
  Options& flag(const std::string& name, const std::string& help);
  /// @brief Adds an example command shown by `--help`.
  Options& example(const std::string& command, const std::string& what);

  /// @brief Parses argv; throws UsageError or HelpShown.
  void parse(int argc, char** argv);
  /// @brief Parses a list of arguments (without the program name).
  void parse(const std::vector<std::string>& args);

  /// @brief True when the option was given on the command line (or is a set flag).
  bool given(const std::string& name) const { return values_.count(name) > 0; }
  /// @brief The option's value: given, else its default.
  std::string text(const std::string& name) const;
  /// @brief An integer in [min, max]; anything else is a UsageError naming the option.
  int integer(const std::string& name, int min, int max) const;
  /// @brief A finite number in [min, max].
  double number(const std::string& name, double min, double max) const;
  /// @brief A size written `WxH` (or `N` for NxN), each side in [1, max_side].
  std::pair<int, int> size(const std::string& name, int max_side = 16384) const;
  /// @brief A comma-separated list of `count` numbers (for matrices).
  std::vector<double> numbers(const std::string& name, std::size_t count) const;
  /// @brief One of `choices`, case-sensitive; the error lists the choices.
  std::string choice(const std::string& name, const std::vector<std::string>& choices) const;

  /// @brief Declares `--variant NAMES` (default `all`): the lesson's variants, listed in the help.
  Options& variant_option(const std::vector<std::string>& variants);
  /// @brief The variants `--variant` asks for, in the lesson's order: all of `variants` for
  /// `all`, else the comma-separated names given. Throws UsageError listing the names otherwise.
  std::vector<std::string> chosen_variants(const std::vector<std::string>& variants) const;

  /// @brief The usage text that `--help` prints.
  std::string usage() const;

  /// @brief Calls `check` with the options once parse() has read them all (a common option, such
  /// as `--record`, can then refuse a bad value before the program starts its work).
  Options& after_parse(std::function<void(const Options&)> check);
  /// @brief The command as typed: the program (see the constructor) and the arguments parsed.
  const std::vector<std::string>& arguments() const { return arguments_; }
  /// @brief The program's name as the student types it, e.g. "./course run 02".
  const std::string& program() const { return program_; }

 private:
  struct Spec {
    std::string metavar, help, default_value;
    bool is_flag = false;
  };
  std::string program_, summary_;
  std::vector<std::string> order_;
  std::map<std::string, Spec> specs_;
  std::map<std::string, std::string> values_;
  std::vector<std::pair<std::string, std::string>> examples_;
  std::vector<std::function<void(const Options&)>> after_parse_;
  std::vector<std::string> arguments_;
};

}  // namespace course
