// course-record-chart: one table of a recorded run (a lesson's --record FILE) drawn again as the
// lesson drew it: its bar chart (ladder_svg(), the lesson's ladder.svg) or, with --roofline, its
// rows on the roofline (render_roofline_svg(), the lesson's roofline.svg), from the run's own
// roofline and copies. The site draws the charts its pages show with it, from the runs the pages
// quote (harness/site/expand_runs.py), so that a chart and its table are the same run.
//
// Exit status: 0 drawn; 2 a mistake in the command, or a record that cannot be read; 6 the file
// is not a run record (not JSON, not format 1, a field missing, marks its roofline does not give);
// 7 the record has no such table, or the table lacks what the chart needs. The chart is written
// whole or not at all.
#include <iostream>

#include "course.hpp"
#include "ladder_chart.hpp"
#include "roofline_plot.hpp"
#include "run_record.hpp"
#include "svg_figure.hpp"

namespace {

constexpr int kExitNotARecord = 6, kExitNoSuchTable = 7;

}  // namespace

int main(int argc, char** argv) {
  try {
    // Step 1: which run, which table, which chart.
    course::Options options("course-record-chart",
                            "Draws a table of a recorded run (a lesson's --record FILE) as the lesson drew it: its "
                            "bar chart, or with --roofline its rows on the roofline.");
    options.value("run", "FILE", "the recorded run (data/runs/DEVICE/NAME.json)")
        .value("table", "N", "which of its tables, from 1", "1")
        .flag("roofline", "draw the rows on the roofline instead of as bars")
        .value("out", "SVG", "the chart to write")
        .example("course-record-chart --run data/runs/h100/02.json --out ladder.svg", "lesson 02's ladder on the H100")
        .example("course-record-chart --run data/runs/h100/05.json --roofline --out roofline.svg",
                 "lesson 05's ladder on the H100's roofline");
    options.parse(argc, argv);
    if (!options.given("run") || !options.given("out")) throw course::UsageError("--run FILE and --out SVG are needed");
    const int number = options.integer("table", 1, 1000);

    // Step 2: the table, its roofline and rows as the lesson held them.
    const course::RecordedTable table = course::read_recorded_table(options.text("run"), number);
    for (std::size_t i = 0; i < table.rows.size(); ++i) {  // the chart marks rows as the table did
      const course::ResultRow& r = table.rows[i];
      const std::string marks = r.kernel_ms > 0 ? course::time_marks(table.roof, r.kernel_ms, r.bytes) : "";
      if (marks != table.marks[i])
        throw course::RecordFormatError(options.text("run") + ": row '" + r.variant + "' is marked '" + table.marks[i] +
                                        "', but its table's roofline gives '" + marks +
                                        "': a chart would not show the table's marks");
    }

    // Step 3: the chart, drawn by the lesson's own code.
    std::string svg;
    if (options.given("roofline")) {
      if (table.roof.copy.gbps <= 0 || table.roof.gflops <= 0)
        throw course::MissingTableError(options.text("run") + ": table " + std::to_string(number) +
                                        " has no copy bandwidth or multiply-add rate, so no roofline");
      svg = course::render_roofline_svg(table.title + " on " + table.device_name, table.roof, table.rows);
    } else {
      svg = course::ladder_svg(table.title, table.device, table.roof, table.rows);
    }
    course::save_svg_file(options.text("out"), svg);
    std::cout << "drew " << options.text("out") << ": table " << number << " of " << options.text("run") << ", "
              << table.rows.size() << " rows\n";
    return course::kExitOk;
  } catch (const course::RecordFormatError& e) {
    std::cerr << course::wrap("error: " + std::string(e.what()));
    return kExitNotARecord;
  } catch (const course::MissingTableError& e) {
    std::cerr << course::wrap("error: " + std::string(e.what()));
    return kExitNoSuchTable;
  } catch (const course::InputError& e) {  // a path may be long: wrapped at 80 columns
    std::cerr << course::wrap("error: " + std::string(e.what()));
    return course::kExitUsage;
  } catch (...) {
    return course::explain_failure(std::current_exception());
  }
}
